#pragma once
#include <stdexcept>
#include <string>

namespace cf {
// What kind of failure a cf::Error is, for callers that act on it (an
// element drops a corrupt frame but stops at a refusal) without reading
// its text.
enum class ErrorKind {
  BadArgument,  // parameters or a frame the call cannot take as given
  Unsupported,  // valid input this library refuses (the JPEG 2000 decoder's refusals and limits)
  CorruptData,  // a codestream or file that breaks its standard, damaged or cut
  Device,       // the GPU or its driver failed
};

// Every failure of the core library (bad parameters, unusable device, CUDA
// errors) is reported as cf::Error; the message names what is wrong.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string &what, ErrorKind kind = ErrorKind::BadArgument)
      : std::runtime_error(what), kind_(kind) {}
  explicit Error(const char *what, ErrorKind kind = ErrorKind::BadArgument) : std::runtime_error(what), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};
}  // namespace cf
