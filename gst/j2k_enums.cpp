// cudaj2kenc's enum and flags types; see j2k_enums.h.
#include "j2k_enums.h"

#include "cudafilters/j2k.hpp"

GType gst_cf_j2k_progression_get_type(void) {
  static gsize type_id = 0;
  // T.800 Table A.16: the order of the packets in each tile.
  static const GEnumValue values[] = {{int(cf::J2kProgression::Lrcp), "Layer, resolution, component, position", "lrcp"},
                                      {int(cf::J2kProgression::Rlcp), "Resolution, layer, component, position", "rlcp"},
                                      {int(cf::J2kProgression::Rpcl), "Resolution, position, component, layer", "rpcl"},
                                      {int(cf::J2kProgression::Pcrl), "Position, component, resolution, layer", "pcrl"},
                                      {int(cf::J2kProgression::Cprl), "Component, position, resolution, layer", "cprl"},
                                      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type_id)) g_once_init_leave(&type_id, g_enum_register_static("GstCfJ2kProgression", values));
  return type_id;
}

GType gst_cf_j2k_block_coder_get_type(void) {
  static gsize type_id = 0;
  static const GEnumValue values[] = {
      {int(cf::J2kBlockCoder::Part1), "Part 1 (EBCOT bit-plane passes, MQ coder)", "part1"},
      {int(cf::J2kBlockCoder::Ht), "High-throughput (HTJ2K, one cleanup pass per code-block)", "ht"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type_id)) g_once_init_leave(&type_id, g_enum_register_static("GstCfJ2kBlockCoder", values));
  return type_id;
}

GType gst_cf_j2k_codeblock_style_get_type(void) {
  static gsize type_id = 0;
  // T.800 Table A.19: the code-block style bits of COD.
  static const GFlagsValue values[] = {
      {cf::j2k_style::kBypass, "Selective arithmetic coding bypass", "bypass"},
      {cf::j2k_style::kReset, "Reset of the context probabilities after each coding pass", "reset"},
      {cf::j2k_style::kRestart, "Termination of the MQ coder after each coding pass", "restart"},
      {cf::j2k_style::kVerticalCausal, "Vertically causal contexts", "vertical-causal"},
      {cf::j2k_style::kPredictable, "Predictable termination", "predictable"},
      {cf::j2k_style::kSegmentationSymbols, "Segmentation symbols", "segmentation-symbols"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type_id))
    g_once_init_leave(&type_id, g_flags_register_static("GstCfJ2kCodeblockStyle", values));
  return type_id;
}

GType gst_cf_j2k_tile_parts_get_type(void) {
  static gsize type_id = 0;
  // T.800 A.4.2: where a tile's packets start a new tile-part.
  static const GEnumValue values[] = {
      {int(cf::J2kTileParts::One), "One tile-part per tile", "one"},
      {int(cf::J2kTileParts::Resolution), "A tile-part wherever the resolution changes", "resolution"},
      {int(cf::J2kTileParts::Layer), "A tile-part wherever the layer changes", "layer"},
      {int(cf::J2kTileParts::Component), "A tile-part wherever the component changes", "component"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type_id)) g_once_init_leave(&type_id, g_enum_register_static("GstCfJ2kTileParts", values));
  return type_id;
}

GType gst_cf_j2k_markers_get_type(void) {
  static gsize type_id = 0;
  // T.800 A.7: the optional segments of lengths.
  static const GFlagsValue values[] = {
      {cf::j2k_marker::kTlm, "TLM: every tile-part's length in the main header", "tlm"},
      {cf::j2k_marker::kPlt, "PLT: the packets' lengths in each tile-part header", "plt"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type_id)) g_once_init_leave(&type_id, g_flags_register_static("GstCfJ2kMarkers", values));
  return type_id;
}

GType gst_cf_j2k_profile_get_type(void) {
  static gsize type_id = 0;
  // SIZ's Rsiz: the profiles the encoder can code to (cudafilters/j2k.hpp).
  static const GEnumValue values[] = {
      {int(cf::J2kProfile::None), "No profile: the element's own settings", "none"},
      {int(cf::J2kProfile::Dci2k), "2K digital cinema (Rsiz 3): 12-bit 4:4:4 up to 2048x1080, 1302083 bytes a frame",
       "dci-2k"},
      {int(cf::J2kProfile::Dci4k), "4K digital cinema (Rsiz 4): 12-bit 4:4:4 up to 4096x2160, 1302083 bytes a frame",
       "dci-4k"},
      {int(cf::J2kProfile::Imf2k), "IMF 2K (Rsiz 0x04ML): 9/7, one tile, 8 to 16 bits 4:4:4 or 4:2:2 up to 2048x1556",
       "imf-2k"},
      {int(cf::J2kProfile::Imf4k), "IMF 4K (Rsiz 0x05ML): imf-2k's rules up to 4096x3112", "imf-4k"},
      {int(cf::J2kProfile::Imf8k), "IMF 8K (Rsiz 0x06ML): imf-2k's rules up to 8192x6224", "imf-8k"},
      {int(cf::J2kProfile::Imf2kR), "IMF 2K reversible (Rsiz 0x07ML): 5/3, lossless, up to 2048x1556", "imf-2k-r"},
      {int(cf::J2kProfile::Imf4kR), "IMF 4K reversible (Rsiz 0x08ML): 5/3, lossless, up to 4096x3112", "imf-4k-r"},
      {int(cf::J2kProfile::Imf8kR), "IMF 8K reversible (Rsiz 0x09ML): 5/3, lossless, up to 8192x6224", "imf-8k-r"},
      {int(cf::J2kProfile::ImfHt),
       "IMF HTJ2K (ST 2067-21 APP2.HT.REV/IRV): HT blocks, RPCL, a tile-part per resolution, up to 8192 a side",
       "imf-ht"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type_id)) g_once_init_leave(&type_id, g_enum_register_static("GstCfJ2kProfile", values));
  return type_id;
}
