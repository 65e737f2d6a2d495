// How a cudafilters GObject type holds C++ state. One pattern for every
// element and base, final or derivable:
//
//   struct GstCudaFooPrivate {        // C++ members, default initialisers
//     int quality = 0;                // properties: GST_OBJECT_LOCK
//     std::vector<...> scratch;       // streaming thread
//   };
//   G_DEFINE_TYPE_WITH_PRIVATE(GstCudaFoo, gst_cuda_foo, PARENT)
//   #define PRIV(self) (static_cast<GstCudaFooPrivate *>(gst_cuda_foo_get_instance_private(self)))
//   _init:     cfgst::construct_private(PRIV(self));
//   _finalize: cfgst::destroy_private(PRIV(GST_CUDA_FOO(object))); then chain up.
//
// GObject allocates the instance-private area zeroed and runs no C++
// constructors or destructors: placement new in _init and the destructor
// call in _finalize give the members their C++ lifetime, exactly once. The
// private area rather than a member of the instance struct, because a
// derivable type's instance struct is public (G_DECLARE_DERIVABLE_TYPE) and
// cannot hold it; no raw `new` members, which each need their own delete.
// Types whose state is plain C (the pinned allocator, the CUDA coefficient
// pool: pointers, ints, GstVideoInfo) keep it in their instance struct.
#pragma once

#include <new>

namespace cfgst {

// Constructs the private struct in the zeroed area GObject gives it.
template <class Private>
void construct_private(Private *area) {
  new (area) Private();
}

// Ends its lifetime; GObject frees the memory afterwards.
template <class Private>
void destroy_private(Private *priv) {
  priv->~Private();
}

}  // namespace cfgst
