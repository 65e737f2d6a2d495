#!/usr/bin/python3
"""Weighted signal-to-noise ratio (WSNR) of a halftone against its original.

    WSNR = 10 log10( sum |X(u,v) C(u,v)|^2 / sum |(X(u,v) - Y(u,v)) C(u,v)|^2 )  dB

X, Y: the 2-D DFTs of the original and of the halftone (grey, 0..255);
C: the Mannos-Sakrison contrast sensitivity function of the radial frequency
f in cycles per degree of visual angle,

    A(f) = 2.6 (0.0192 + 0.114 f) exp(-(0.114 f)^1.1).

This is the measure of Mitsa & Varkur (1992) in the form Damera-Venkata,
Kite, Geisler, Evans & Bovik give it ("Image quality assessment based on a
degradation model", IEEE Trans. Image Processing, 2000): both sums run over
every DFT bin, the mean (DC) bin included.

The CSF, by default (lowpass=True), is held at its peak value below the peak
frequency: C(f) = A(7.8909) = 0.9809 for f < 7.8909 cycles/degree, A(f)
above, radially symmetric (no oblique-effect term). That low-pass form
follows Sullivan, Ray & Miller (1991), who flattened the CSF below its peak
for halftone design, and is what WSNR implementations for halftones
commonly use: the eye does see a wrong mean. With lowpass=False the
band-pass A(f) is used as written: the mean (DC) bin then weighs
A(0) = 2.6 * 0.0192 = 0.0499, twenty times less than the peak, so most of
a photo's own energy (mean and coarse structure) hardly counts as signal,
and binary halftones of photos score around 0 to 12 dB instead of 20 to
30 dB.

Viewing condition (used everywhere this module is used): a 300-dpi print
viewed from 20 inches (51 cm). One degree of visual angle then spans
2 * 20 * tan(0.5 deg) = 0.349 inch = 104.7 pixels, so the highest frequency
of the image (0.5 cycle/pixel) lies at 52.4 cycles/degree. A bin (k, l) of
an H x W image has fx = k'/W, fy = l'/H cycles/pixel (k', l' the signed
bin indices) and f = sqrt(fx^2 + fy^2) * pixels_per_degree.

Higher is better. Binary error-diffusion halftones of photos score around
20 to 30 dB under this condition.

Usage: wsnr.py [--bandpass] original.png halftone.png   (any image Pillow
reads; colour is converted to ITU-R 601 luma; --bandpass: lowpass=False)
"""
import math
import sys

import numpy as np

PPI = 300.0          # print resolution, pixels per inch
DISTANCE_IN = 20.0   # viewing distance, inches


def pixels_per_degree(ppi=PPI, distance_in=DISTANCE_IN):
    """Pixels covered by one degree of visual angle at the viewing distance."""
    return ppi * 2.0 * distance_in * math.tan(math.radians(0.5))


def mannos_sakrison(f):
    """Contrast sensitivity at f cycles/degree (Mannos & Sakrison, 1974)."""
    return 2.6 * (0.0192 + 0.114 * f) * np.exp(-np.power(0.114 * f, 1.1))


# The maximum of A(f): dA/df = 0 where 0.114 (1 - 1.1 (0.0192 + 0.114 f)
# (0.114 f)^0.1) = 0, solved numerically.
PEAK_CPD = 7.8909
PEAK_VALUE = float(2.6 * (0.0192 + 0.114 * PEAK_CPD) * math.exp(-(0.114 * PEAK_CPD) ** 1.1))


def csf_weights(shape, ppi=PPI, distance_in=DISTANCE_IN, lowpass=True):
    """C(u, v) on the DFT grid of an image of `shape` (rows, columns)."""
    rows, cols = shape
    fy = np.fft.fftfreq(rows)[:, None]  # cycles/pixel, signed, DFT order
    fx = np.fft.fftfreq(cols)[None, :]
    f = np.hypot(fx, fy) * pixels_per_degree(ppi, distance_in)
    c = mannos_sakrison(f)
    return np.where(f < PEAK_CPD, PEAK_VALUE, c) if lowpass else c


def wsnr(original, halftone, ppi=PPI, distance_in=DISTANCE_IN, lowpass=True):
    """WSNR in dB of `halftone` against `original` (2-D arrays of the same
    shape, grey levels 0..255); math.inf when they are equal. lowpass:
    the CSF held at its peak below the peak frequency (module comment)."""
    x = np.asarray(original, dtype=np.float64)
    y = np.asarray(halftone, dtype=np.float64)
    if x.ndim != 2 or y.ndim != 2:
        raise ValueError(f"wsnr: grey (2-D) images needed, got shapes {x.shape} and {y.shape}")
    if x.shape != y.shape:
        raise ValueError(f"wsnr: original is {x.shape[1]}x{x.shape[0]}, halftone {y.shape[1]}x{y.shape[0]}")
    if ppi <= 0 or distance_in <= 0:
        raise ValueError(f"wsnr: ppi ({ppi}) and distance_in ({distance_in}) must be positive")
    c = csf_weights(x.shape, ppi, distance_in, lowpass)
    signal = np.sum(np.abs(np.fft.fft2(x) * c) ** 2)
    noise = np.sum(np.abs(np.fft.fft2(x - y) * c) ** 2)
    if noise == 0:
        return math.inf
    if signal == 0:  # an all-black original: nothing to weigh the error against
        return -math.inf
    return 10.0 * math.log10(signal / noise)


def load_grey(path):
    from PIL import Image
    return np.asarray(Image.open(path).convert("L"))


def main(argv):
    args = argv[1:]
    lowpass = "--bandpass" not in args
    args = [a for a in args if a != "--bandpass"]
    if len(args) != 2:
        sys.stderr.write("usage: wsnr.py [--bandpass] original.png halftone.png\n")
        return 2
    value = wsnr(load_grey(args[0]), load_grey(args[1]), lowpass=lowpass)
    print(f"{value:.2f} dB ({PPI:.0f} dpi viewed at {DISTANCE_IN:.0f} in, {pixels_per_degree():.1f} pixels/degree, "
          f"{'low-pass' if lowpass else 'band-pass'} CSF)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
