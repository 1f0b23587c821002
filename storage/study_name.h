// The check every backend makes of a study's name. Internal to storage/.
#ifndef GPBANDIT_STORAGE_STUDY_NAME_H_
#define GPBANDIT_STORAGE_STUDY_NAME_H_

#include <string>

namespace gpbandit {

// Throws std::invalid_argument for a name holding a control character (a newline, a tab, a
// NUL, DEL ...): it would break the listings and messages that show it, a line per study, and
// cannot be typed back. Backends add their own rules (a directory's studies are file names).
void CheckStudyName(const std::string& study);

}  // namespace gpbandit

#endif  // GPBANDIT_STORAGE_STUDY_NAME_H_
