#pragma once
#include <stdexcept>
#include <string>

namespace cf {
// Every failure of the core library (bad parameters, unusable device, CUDA
// errors) is reported as cf::Error; the message names what is wrong.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
}  // namespace cf
