// kernels/ compiled for the CPU emulation (emulator.hpp) instead of nvcc.
#include "emulator.hpp"
#include "emulator_atomics.hpp"

#include "kernels/cuda_context.cu"
#include "kernels/cuda_state.cu"
#include "kernels/wavelet.cu"
#include "kernels/predictor.cu"
#include "kernels/hough.cu"
#include "kernels/halftone.cu"
#include "kernels/colour.cu"
#include "kernels/entropy.cu"
#include "kernels/cdf97.cu"
