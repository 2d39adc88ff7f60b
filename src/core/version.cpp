#include <proxima/version.hpp>

namespace proxima {

const char* version() noexcept { return PROXIMA_VERSION_STRING; }

}  // namespace proxima
