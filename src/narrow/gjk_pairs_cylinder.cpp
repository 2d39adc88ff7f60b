// SPDX-License-Identifier: BSD-3-Clause
// GJK cells of the dispatch table whose first shape is a cylinder.
#include "gjk_pair.hpp"

namespace proxima::narrow::detail {

PROXIMA_FOR_EACH_GJK_PAIR(PROXIMA_INSTANTIATE_GJK_PAIR, Cylinder)

}  // namespace proxima::narrow::detail
