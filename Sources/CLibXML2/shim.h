#include <libxml/xmlversion.h>
// NB: with ICU enabled, libxml2's encoding.h includes the system's ICU headers, whose
// UErrorCode clashes with the toolchain's own ICU (_FoundationICU) in any module that sees
// both (a cold build of a target importing Playfield failed on it). Playfield never touches
// an encoding handler's ICU converters, the only declarations this removes.
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
