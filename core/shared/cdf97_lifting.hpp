// The CDF 9/7's lifting parameters and scaling factor, T.800 Table F.4,
// written once: as doubles for the host's computations in double precision
// (the quantisation steps' norms), and for the float rules of the CDF 9/7
// element and the JPEG 2000 codec, which take float() of them (the nearest
// float, the same bits as the float literals).
#pragma once

namespace cf::cdf97_lifting {

constexpr double kAlpha = -1.586134342059924;
constexpr double kBeta = -0.052980118572961;
constexpr double kGamma = 0.882911075530934;
constexpr double kDelta = 0.443506852043971;
constexpr double kK = 1.230174104914001;

}  // namespace cf::cdf97_lifting
