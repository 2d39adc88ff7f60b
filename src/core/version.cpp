// SPDX-License-Identifier: BSD-3-Clause
#include <proxima/version.hpp>

namespace proxima {

const char* version() noexcept { return PROXIMA_VERSION_STRING; }

}  // namespace proxima
