// The GTypes of cudaj2kenc's progression, block-coder, codeblock-style,
// tile-parts, markers and profile properties, whose values are
// cf::J2kProgression's, cf::J2kBlockCoder's, the j2k_style bits,
// cf::J2kTileParts', the j2k_marker bits and cf::J2kProfile's.
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define GST_TYPE_CF_J2K_PROGRESSION (gst_cf_j2k_progression_get_type())
GType gst_cf_j2k_progression_get_type(void);

#define GST_TYPE_CF_J2K_BLOCK_CODER (gst_cf_j2k_block_coder_get_type())
GType gst_cf_j2k_block_coder_get_type(void);

#define GST_TYPE_CF_J2K_CODEBLOCK_STYLE (gst_cf_j2k_codeblock_style_get_type())
GType gst_cf_j2k_codeblock_style_get_type(void);

#define GST_TYPE_CF_J2K_TILE_PARTS (gst_cf_j2k_tile_parts_get_type())
GType gst_cf_j2k_tile_parts_get_type(void);

#define GST_TYPE_CF_J2K_MARKERS (gst_cf_j2k_markers_get_type())
GType gst_cf_j2k_markers_get_type(void);

#define GST_TYPE_CF_J2K_PROFILE (gst_cf_j2k_profile_get_type())
GType gst_cf_j2k_profile_get_type(void);

G_END_DECLS
