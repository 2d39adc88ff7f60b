// SPDX-License-Identifier: BSD-3-Clause
// The contact manifold of two boxes, without the generic dispatch.
#pragma once

#include <proxima/contact/contact.hpp>
#include <proxima/shape/shape.hpp>

namespace proxima::narrow::detail {

/// contacts() for two boxes (options and poses already checked): the same
/// construction as the generic path, hence the same points, with each box's
/// feature read off its axes and its hull built without sorting. Returns
/// false, leaving `out` for the generic path to overwrite, when a box is
/// thinner than the feature tolerance on every axis (its feature is then the
/// whole box, left to the generic hull and height model).
bool box_box_contacts(const Shape& a, const Transform& pose_a, const Shape& b,
                      const Transform& pose_b, const ContactOptions& options, ContactSet& out);

}  // namespace proxima::narrow::detail
