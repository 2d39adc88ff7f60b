// SPDX-License-Identifier: BSD-3-Clause
// GJK cells of the dispatch table whose first shape is a cone.
#include "gjk_pair.hpp"

namespace proxima::narrow::detail {

PROXIMA_FOR_EACH_GJK_PAIR(PROXIMA_INSTANTIATE_GJK_PAIR, Cone)

}  // namespace proxima::narrow::detail
