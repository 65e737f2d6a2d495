// GstCfBase's engine properties (backend, threads, device-id, host-wait and
// the read-only active-backend) for an element that cannot derive from it
// (cudaj2kenc is a GstVideoEncoder): the same names, ranges, defaults and
// descriptions, copied from GstCfBase's own property specs so that they
// cannot drift apart.
#pragma once

#include <gst/gst.h>

namespace cfgst {

enum class EngineProp { Backend, Threads, DeviceId, HostWait, ActiveBackend, Count };

// Installs the five properties on `klass` with ids first_id + int(EngineProp).
void install_engine_properties(GObjectClass *klass, guint first_id);

}  // namespace cfgst
