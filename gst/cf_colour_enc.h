// GstCfColourEnc: the shared base of the colour transform elements (cudarct,
// cudaycocg). Raw RGB-family video in, a video/x-coefficients stream of one
// colour stage out (S16LE planes Y and two differences, then alpha for
// RGBA/BGRA), which a wavelet element may continue (chain_caps.h) and
// cudainverse undoes. A subclass only sets `colour` and its metadata.
#pragma once

#include "cf_base.h"
#include "cudafilters/colour.hpp"

G_BEGIN_DECLS

#define GST_TYPE_CF_COLOUR_ENC (gst_cf_colour_enc_get_type())
G_DECLARE_DERIVABLE_TYPE(GstCfColourEnc, gst_cf_colour_enc, GST, CF_COLOUR_ENC, GstCfBase)

G_END_DECLS

struct _GstCfColourEncClass {
  GstCfBaseClass parent_class;
  cf::ColourTransform colour;  // set by the subclass
};
