// What a process holds, for leak checks (fault tests, cf-soak): host RSS,
// open file descriptors and GPU memory in use. Header-only, no CUDA headers.
#pragma once

#include <dirent.h>

#include <cstdio>
#include <cstring>

#include "cudafilters/engine.hpp"

namespace cft {

// VmRSS of /proc/self/status in bytes; -1 when unreadable.
inline long long rss_bytes() {
  std::FILE *f = std::fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long long kb = -1;
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, "VmRSS:", 6) == 0) std::sscanf(line + 6, "%lld", &kb);
  std::fclose(f);
  return kb < 0 ? -1 : kb * 1024;
}

// Entries of /proc/self/fd (the directory stream's own included).
inline int open_fds() {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return -1;
  int n = 0;
  while (readdir(d)) ++n;
  closedir(d);
  return n - 2;  // . and ..
}

// Device memory in use on `device` (total - free, all processes), in bytes;
// -1 without a usable CUDA device.
inline long long gpu_used_bytes(int device = 0) {
  std::size_t free_bytes = 0, total_bytes = 0;
  if (!cf::cuda_memory_info(device, &free_bytes, &total_bytes)) return -1;
  return (long long)(total_bytes - free_bytes);
}

}  // namespace cft
