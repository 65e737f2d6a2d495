// The cudafilters plugin: registers its elements.
#include <gst/gst.h>

GST_ELEMENT_REGISTER_DECLARE(cudahaar);
GST_ELEMENT_REGISTER_DECLARE(cudacdf53);
GST_ELEMENT_REGISTER_DECLARE(cudacdf97);
GST_ELEMENT_REGISTER_DECLARE(cudainverse);
GST_ELEMENT_REGISTER_DECLARE(cudaview);
GST_ELEMENT_REGISTER_DECLARE(cudamed);
GST_ELEMENT_REGISTER_DECLARE(cudagap);
GST_ELEMENT_REGISTER_DECLARE(cudaged);
GST_ELEMENT_REGISTER_DECLARE(cudahough);
GST_ELEMENT_REGISTER_DECLARE(cudahalftone);
GST_ELEMENT_REGISTER_DECLARE(cudarct);
GST_ELEMENT_REGISTER_DECLARE(cudaycocg);
GST_ELEMENT_REGISTER_DECLARE(cudaentropy);
GST_ELEMENT_REGISTER_DECLARE(cudadct);
GST_ELEMENT_REGISTER_DECLARE(cudaj2kenc);
GST_ELEMENT_REGISTER_DECLARE(cudaj2kdec);

static gboolean plugin_init(GstPlugin *plugin) {
  gboolean ok = FALSE;
  ok |= GST_ELEMENT_REGISTER(cudahaar, plugin);
  ok |= GST_ELEMENT_REGISTER(cudacdf53, plugin);
  ok |= GST_ELEMENT_REGISTER(cudacdf97, plugin);
  ok |= GST_ELEMENT_REGISTER(cudainverse, plugin);
  ok |= GST_ELEMENT_REGISTER(cudaview, plugin);
  ok |= GST_ELEMENT_REGISTER(cudamed, plugin);
  ok |= GST_ELEMENT_REGISTER(cudagap, plugin);
  ok |= GST_ELEMENT_REGISTER(cudaged, plugin);
  ok |= GST_ELEMENT_REGISTER(cudahough, plugin);
  ok |= GST_ELEMENT_REGISTER(cudahalftone, plugin);
  ok |= GST_ELEMENT_REGISTER(cudarct, plugin);
  ok |= GST_ELEMENT_REGISTER(cudaycocg, plugin);
  ok |= GST_ELEMENT_REGISTER(cudaentropy, plugin);
  ok |= GST_ELEMENT_REGISTER(cudadct, plugin);
  ok |= GST_ELEMENT_REGISTER(cudaj2kenc, plugin);
  ok |= GST_ELEMENT_REGISTER(cudaj2kdec, plugin);
  return ok;
}

GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, cudafilters,
                  "Image decorrelation filters (wavelets, colour transforms, predictors, their inverse, entropy), "
                  "Hough line detection and halftoning on CUDA, OpenMP or the CPU",
                  plugin_init, VERSION, GST_PACKAGE_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
