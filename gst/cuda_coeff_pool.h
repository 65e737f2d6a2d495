// GstCfCudaCoeffPool: buffers of coefficients in CUDA memory. A coefficient
// frame is one linear run of tightly packed planes, but GStreamer 1.22's
// GstCudaMemory only allocates pitched video frames. So each buffer is one
// GstCudaMemory shaped as RGBA, 1024 pixels (4096 bytes) wide and as many
// rows as the frame needs: a row of 4096 bytes is a multiple of every pitch
// alignment CUDA uses, so pitch == row and the rows form one contiguous run.
// The buffer is up to 4095 bytes longer than the frame (the last row's
// tail); it is not shrunk, because 1.22 sizes the host staging copy of a
// GstCudaMemory by its (shrunk) size but copies every pitched row into it.
// Buffers carry no GstVideoMeta (they are not video).
// Configure with gst_buffer_pool_config_set_params(config, caps, frame size,
// min, max); the pool rounds the size up to whole rows.
#pragma once

#include <gst/gst.h>

typedef struct _GstCudaContext GstCudaContext;

GstBufferPool *gst_cf_cuda_coeff_pool_new(GstCudaContext *context);
