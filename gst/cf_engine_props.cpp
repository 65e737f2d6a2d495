// Copies of GstCfBase's engine property specs; see cf_engine_props.h.
#include "cf_engine_props.h"

#include "cf_base.h"

namespace cfgst {

namespace {

const char *const kNames[] = {"backend", "threads", "device-id", "host-wait", "active-backend"};

// A new spec of the same type, name, texts, range, default and flags. The
// texts are GstCfBase's static strings, which live as long as the plugin.
GParamSpec *copy_spec(GParamSpec *p) {
  const char *name = g_param_spec_get_name(p), *nick = g_param_spec_get_nick(p), *blurb = g_param_spec_get_blurb(p);
  const GParamFlags flags = p->flags;
  if (G_IS_PARAM_SPEC_ENUM(p))
    return g_param_spec_enum(name, nick, blurb, G_PARAM_SPEC_VALUE_TYPE(p), G_PARAM_SPEC_ENUM(p)->default_value, flags);
  if (G_IS_PARAM_SPEC_UINT(p)) {
    const GParamSpecUInt *u = G_PARAM_SPEC_UINT(p);
    return g_param_spec_uint(name, nick, blurb, u->minimum, u->maximum, u->default_value, flags);
  }
  if (G_IS_PARAM_SPEC_INT(p)) {
    const GParamSpecInt *i = G_PARAM_SPEC_INT(p);
    return g_param_spec_int(name, nick, blurb, i->minimum, i->maximum, i->default_value, flags);
  }
  if (G_IS_PARAM_SPEC_BOOLEAN(p))
    return g_param_spec_boolean(name, nick, blurb, G_PARAM_SPEC_BOOLEAN(p)->default_value, flags);
  return g_param_spec_string(name, nick, blurb, G_PARAM_SPEC_STRING(p)->default_value, flags);
}

}  // namespace

void install_engine_properties(GObjectClass *klass, guint first_id) {
  // GstCfBase is abstract: its class exists once referenced, and is kept.
  GObjectClass *base = G_OBJECT_CLASS(g_type_class_ref(GST_TYPE_CF_BASE));
  for (int i = 0; i < int(EngineProp::Count); ++i) {
    GParamSpec *p = g_object_class_find_property(base, kNames[i]);
    g_assert(p);
    g_object_class_install_property(klass, first_id + guint(i), copy_spec(p));
  }
}

}  // namespace cfgst
