// FormatDouble is installed API: include "gpbandit/gp/format.h". This path remains for the
// sources of plugin/ that still include it.
#ifndef GPBANDIT_GP_INTERNAL_FORMAT_H_
#define GPBANDIT_GP_INTERNAL_FORMAT_H_

#include "gpbandit/gp/format.h"

#endif  // GPBANDIT_GP_INTERNAL_FORMAT_H_
