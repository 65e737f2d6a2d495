// GstCfPredictorEnc: the shared base of the predictor elements (cudamed,
// cudagap, cudaged). Raw video (or a colour stage's coefficients: cudarct !
// cudamed) in, a video/x-coefficients stream of residuals out, with the property slice-height (and threshold, which
// cudaged installs with gst_cf_predictor_enc_install_threshold). A subclass only sets `predictor` in its class_init and
// its element metadata.
#pragma once

#include "cf_base.h"
#include "cudafilters/predictor.hpp"

G_BEGIN_DECLS

#define GST_TYPE_CF_PREDICTOR_ENC (gst_cf_predictor_enc_get_type())
G_DECLARE_DERIVABLE_TYPE(GstCfPredictorEnc, gst_cf_predictor_enc, GST, CF_PREDICTOR_ENC, GstCfBase)

G_END_DECLS

struct _GstCfPredictorEncClass {
  GstCfBaseClass parent_class;
  cf::Predictor predictor;  // set by the subclass
};

// Adds the `threshold` property (GED's edge threshold) to a subclass.
void gst_cf_predictor_enc_install_threshold(GObjectClass *klass);
