#!/usr/bin/python3
"""Known answers for pipelines/wsnr.py, worked from the definition.

A constant original (all its energy in the DC bin) against a halftone that
differs from it by one pure cosine: the DFT of a constant c over an H x W
image is c H W at (0, 0); that of b cos(2 pi (k x / W + l y / H)) is
b H W / 2 at (k, l) and at (-k, -l). So

    WSNR = 10 log10( (c H W C(0))^2 / (2 (b H W / 2)^2 C(f)^2) )
         = 10 log10( 2 c^2 C(0)^2 / (b^2 C(f)^2) ),

f = sqrt((k/W)^2 + (l/H)^2) cycles/pixel times the pixels per degree. The
CSF and its peak are evaluated here with the math module on their own.

Usage: test_wsnr.py PIPELINES_DIR   (exits 77, skipped, without numpy)
"""
import math
import sys

try:
    import numpy as np
except ImportError:
    print("SKIP: numpy is not installed")
    sys.exit(77)

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else "pipelines")
import wsnr  # noqa: E402

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


def mannos_sakrison(f):
    return 2.6 * (0.0192 + 0.114 * f) * math.exp(-((0.114 * f) ** 1.1))


def peak():
    """The CSF's maximum, by bisection on the sign of its slope."""
    lo, hi = 1.0, 20.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if mannos_sakrison(mid + 1e-9) > mannos_sakrison(mid - 1e-9):
            lo = mid
        else:
            hi = mid
    return lo, mannos_sakrison(lo)


PEAK_F, PEAK_A = peak()


def csf(f, lowpass):
    return PEAK_A if lowpass and f < PEAK_F else mannos_sakrison(f)


def ppd(ppi, distance_in):
    return ppi * 2 * distance_in * math.tan(math.pi / 360)


def cosine_case(h, w, k, l, c=100.0, b=10.0, ppi=300.0, distance_in=20.0, lowpass=True):
    y, x = np.mgrid[0:h, 0:w]
    original = np.full((h, w), c)
    halftone = original - b * np.cos(2 * np.pi * (k * x / w + l * y / h))
    got = wsnr.wsnr(original, halftone, ppi=ppi, distance_in=distance_in, lowpass=lowpass)
    f = math.hypot(k / w, l / h) * ppd(ppi, distance_in)
    want = 10 * math.log10(2 * c * c * csf(0, lowpass) ** 2 / (b * b * csf(f, lowpass) ** 2))
    check(abs(got - want) < 1e-6,
          f"{w}x{h} cosine ({k},{l}) at {ppi} dpi/{distance_in} in, lowpass={lowpass}: got {got}, want {want}")
    return got


# The peak the module uses is the CSF's maximum.
check(abs(wsnr.PEAK_CPD - PEAK_F) < 1e-4 and abs(wsnr.PEAK_VALUE - PEAK_A) < 1e-6,
      f"peak: module {wsnr.PEAK_CPD}, {wsnr.PEAK_VALUE}; here {PEAK_F}, {PEAK_A}")
# The viewing condition: 300 dpi at 20 in, 104.7 pixels per degree.
check(abs(wsnr.pixels_per_degree() - 104.72) < 0.01, f"pixels per degree {wsnr.pixels_per_degree()}")

for lowpass in (True, False):
    cosine_case(64, 64, 16, 0, lowpass=lowpass)  # 0.25 cycle/px across: 26.2 cycles/degree
    cosine_case(32, 64, 0, 4, lowpass=lowpass)  # along a non-square image's rows: 1/8 cycle/px, 13.1 c/deg
    cosine_case(64, 64, 8, 8, lowpass=lowpass)  # diagonal: radial frequency sqrt(2)/8 cycle/px
    cosine_case(64, 64, 1, 0, lowpass=lowpass)  # 1.6 c/deg, below the peak: flattened when lowpass
    cosine_case(48, 80, 5, 3, b=3.0, ppi=150.0, distance_in=10.0, lowpass=lowpass)  # another viewing condition

# A worked number: 64x64, c = 100, b = 10, 16 cycles across at 300 dpi / 20 in
# (f = 26.18 c/deg, A(f) = 0.27969), band-pass CSF (C(0) = 0.04992):
# 10 log10(2 * 100^2 * 0.04992^2 / (10^2 * 0.27969^2)) = 8.04 dB.
check(abs(cosine_case(64, 64, 16, 0, lowpass=False) - 8.04) < 0.01, "the worked number 8.04 dB")

# Equal images: no noise, infinite WSNR.
a = np.arange(64 * 48, dtype=np.float64).reshape(48, 64) % 256
check(wsnr.wsnr(a, a.copy()) == math.inf, "equal images must give inf")

# The same error energy is less visible at the highest frequency than as a
# change of mean: the checkerboard (0.5 cycle/px both ways, 74 c/deg)
# scores higher than the constant error, with either CSF form.
original = np.full((64, 64), 128.0)
yy, xx = np.mgrid[0:64, 0:64]
constant_error = original - 10
checkerboard_error = original - 10 * np.where((xx + yy) % 2 == 0, 1, -1)
for lowpass in (True, False):
    low = wsnr.wsnr(original, constant_error, lowpass=lowpass)
    high = wsnr.wsnr(original, checkerboard_error, lowpass=lowpass)
    check(high > low + 10, f"lowpass={lowpass}: checkerboard error {high} dB vs constant error {low} dB")

# Bad input is named.
for bad in [(np.zeros((4, 4)), np.zeros((4, 5))), (np.zeros((4, 4, 3)), np.zeros((4, 4, 3)))]:
    try:
        wsnr.wsnr(*bad)
        check(False, f"shapes {bad[0].shape}, {bad[1].shape} accepted")
    except ValueError as e:
        check("wsnr" in str(e), f"message {e}")

print("test_wsnr:", "FAILED" if failures else "ok", f"({failures} failures)" if failures else "")
sys.exit(1 if failures else 0)
