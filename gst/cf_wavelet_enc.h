// GstCfWaveletEnc: the shared base of the forward wavelet elements (cudahaar,
// cudacdf53). Raw video in, a video/x-coefficients stream out, with the
// properties levels and layout. A subclass only sets `wavelet` in its
// class_init and its element metadata.
#pragma once

#include "cf_base.h"
#include "cudafilters/wavelet.hpp"

G_BEGIN_DECLS

#define GST_TYPE_CF_LAYOUT (gst_cf_layout_get_type())
GType gst_cf_layout_get_type(void);  // GEnum mirroring cf::Layout

#define GST_TYPE_CF_WAVELET_ENC (gst_cf_wavelet_enc_get_type())
G_DECLARE_DERIVABLE_TYPE(GstCfWaveletEnc, gst_cf_wavelet_enc, GST, CF_WAVELET_ENC, GstCfBase)

G_END_DECLS

struct _GstCfWaveletEncClass {
  GstCfBaseClass parent_class;
  cf::Wavelet wavelet;  // set by the subclass
};

// Default of the levels property (documented in its blurb and docs/wavelets.md):
// one level, the smallest transform that is valid for every frame size.
constexpr int kCfDefaultLevels = 1;
