// SPDX-License-Identifier: BSD-3-Clause
// Internal entry points of the contact manifold (proxima::contacts in
// query.hpp is the public one), for tests and comparisons.
#pragma once

#include <proxima/query.hpp>

namespace proxima::narrow {

/// proxima::contacts through the construction that serves every pair type
/// (support features, hulls, planar intersection), bypassing the dedicated
/// box–box path. Same contract and, for two boxes, the same points (within
/// rounding) as contacts().
void generic_contacts(const Shape& a, const Transform& pose_a, const Shape& b,
                      const Transform& pose_b, const ContactOptions& options, ContactSet& out);

}  // namespace proxima::narrow
