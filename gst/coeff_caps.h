// The video/x-coefficients media type: translation between caps and core/.
// This header gathers the pieces, one job each: raw_formats.h (formats,
// memory, sample types), coeff_stages.h (the transform chain),
// coeff_layout.h (the buffer layout), coeff_caps_read.h (caps -> core
// parameters), coeff_caps_write.h (core parameters -> caps) and
// caps_fields.h (strict field readers).
//
// A coefficient stream describes itself, so cudainverse (and an application
// reading an appsink) needs nothing but the caps. A typical stream:
//
//   video/x-coefficients, transform=(string)cdf53,
//       cdf53-levels=(int)3, cdf53-layout=(string)mallat,
//       sample-format=(string)S16LE, format=(string)I420,
//       width=(int)640, height=(int)480, framerate=(fraction)30/1,
//       pixel-aspect-ratio=(fraction)1/1, colorimetry=(string)bt601,
//       chroma-site=(string)jpeg, interlace-mode=(string)progressive
//
// transform      the chain of stages in the order they were applied,
//                comma-separated ("cdf53", "rct", "ycocg,cdf53").
//                cudainverse undoes it from the last stage back. A stage
//                appears at most once; a colour stage (rct, ycocg) must be
//                the first one and needs an RGB-family format; a wavelet
//                or predictor stage must be the last one. The values each stage gets are
//                derived from the chain (stage_input_range): after a colour
//                stage, [-255, 255] for 8-bit RGB, which sets the wavelet's
//                level limit and keeps a predictor's residuals in S16
//                (parsing fills a predictor stage's PredictorParams::input).
// <stage>-<param> per-stage parameters as prefixed fields (haar-levels,
//                haar-layout, cdf53-levels, cdf53-layout, dct-quality): a flat structure
//                stays readable with gst_structure_get_int() and writable in a
//                gst-launch capsfilter, unlike nested structures.
// sample-format  S16LE for 8-bit raw formats, S32LE for GRAY16_LE; a cdf97
//                stream: F32LE, or S16LE/S32LE as above with cdf97-quant-step > 0.
// cdf97 fields   cdf97-levels, cdf97-layout, cdf97-quant-step (double, 0 =
//                none), cdf97-threshold (double, 0 = none),
//                cdf97-threshold-mode (string hard or soft).
// format, width, height (required), framerate, pixel-aspect-ratio,
//                colorimetry, chroma-site, interlace-mode (when known): the
//                raw video the stream rebuilds to.
//
// Buffer layout: coeff_layout.h.
#pragma once

#include "caps_fields.h"
#include "coeff_caps_read.h"
#include "coeff_caps_write.h"
#include "coeff_layout.h"
#include "coeff_stages.h"
#include "raw_formats.h"
