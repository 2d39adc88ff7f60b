// SPDX-License-Identifier: BSD-3-Clause
// Triangle meshes: TriangleMesh (from arrays or a file), its Bvh, read_mesh.
#include <filesystem>
#include <limits>

#include <pybind11/stl/filesystem.h>

#include <proxima/io/mesh_io.hpp>
#include <proxima/mesh/bvh.hpp>

#include "bindings.hpp"
#include "convert.hpp"
#include "pickling.hpp"

namespace proxima::python {
namespace {

// Triangles as integers: a float array would be truncated silently by a
// cast, and a negative index would wrap to a huge unsigned one.
std::vector<TriangleIndices> triangles_arg(const py::object& value) {
  const py::array any = py::array::ensure(value);
  if (!any) type_error("triangles: expected a (T, 3) integer array");
  if (any.ndim() != 2 || any.shape(1) != 3) {
    value_error("triangles: expected a (T, 3) array of vertex indices, got shape " + shape_string(any));
  }
  const char kind = any.dtype().kind();
  if (any.size() > 0 && kind != 'i' && kind != 'u') {
    type_error("triangles: expected integer vertex indices, got dtype " + std::string(py::str(any.dtype())));
  }
  const auto ints = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(any);
  std::vector<TriangleIndices> out(static_cast<std::size_t>(any.shape(0)));
  const std::int64_t* d = ints.data();
  for (std::size_t t = 0; t < out.size(); ++t) {
    for (std::size_t k = 0; k < 3; ++k) {
      const std::int64_t v = d[3 * t + k];
      if (v < 0 || v > std::numeric_limits<std::uint32_t>::max()) {
        value_error("triangles[" + std::to_string(t) + "]: vertex index " + std::to_string(v) + " is out of range");
      }
      out[t][k] = static_cast<std::uint32_t>(v);
    }
  }
  return out;
}

py::array_t<std::int64_t> triangles_array(const TriangleMesh& mesh) {
  py::array_t<std::int64_t> a({static_cast<py::ssize_t>(mesh.triangle_count()), py::ssize_t{3}});
  std::int64_t* d = a.mutable_data();
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t)
    for (std::size_t k = 0; k < 3; ++k) d[3 * t + k] = mesh.triangles()[t][k];
  return a;
}

BvhVolume volume_arg(const std::string& s) {
  if (s == "rss") return BvhVolume::rss;
  if (s == "obb") return BvhVolume::obb;
  if (s == "aabb") return BvhVolume::aabb;
  value_error("volume: unknown \"" + s + "\" (expected rss, obb or aabb)");
}

BvhSplit split_arg(const std::string& s) {
  if (s == "sah") return BvhSplit::sah;
  if (s == "median") return BvhSplit::median;
  value_error("split: unknown \"" + s + "\" (expected sah or median)");
}

const char* volume_name(BvhVolume v) {
  switch (v) {
    case BvhVolume::rss: return "rss";
    case BvhVolume::obb: return "obb";
    case BvhVolume::aabb: return "aabb";
  }
  return "rss";
}

const char* split_name(BvhSplit s) { return s == BvhSplit::median ? "median" : "sah"; }

py::object mesh_state(const TriangleMesh& t) {
  return py::make_tuple(to_array(t.vertices()), triangles_array(t), t.margin(), t.name());
}

TriangleMesh restore_mesh(const py::object& state) {
  const StateReader r(state, "TriangleMesh", {"vertices", "triangles", "margin", "name"});
  return r.build([&] {
    return TriangleMesh(r.points(0), triangles_arg(py::reinterpret_borrow<py::object>(r.item(1))), r.number(2),
                        r.text(3));
  });
}

// The mesh and the build options, not the hierarchy: rebuilding it is
// deterministic and costs about what reading it back would (no format to
// keep stable across versions either).
py::object bvh_state(const Bvh& b) {
  const BvhOptions& o = b.options();
  return py::make_tuple(py::cast(b.mesh()), volume_name(o.volume), o.leaf_size, split_name(o.split));
}

Bvh restore_bvh(const py::object& state) {
  const StateReader r(state, "Bvh", {"mesh", "volume", "leaf_size", "split"});
  if (!py::isinstance<TriangleMesh>(r.item(0))) r.fail("mesh must be a TriangleMesh");
  const TriangleMesh& mesh = r.item(0).cast<const TriangleMesh&>();
  return r.build([&] {
    BvhOptions o;
    o.volume = volume_arg(r.text(1));
    o.split = split_arg(r.text(3));
    const long long leaf = r.integer(2);
    if (leaf < 1 || leaf > 8) r.fail("leaf_size must be in 1..8 (got " + std::to_string(leaf) + ")");
    o.leaf_size = static_cast<int>(leaf);
    py::gil_scoped_release unlocked;
    return Bvh(mesh, o);
  });
}

}  // namespace

void bind_meshes(py::module_& m) {
  py::class_<TriangleMesh>(m, "TriangleMesh",
                           "A triangle soup (open, non-manifold, duplicates allowed) with an optional margin; a "
                           "surface, not a solid. Queries take its Bvh.")
      .def(py::init([](const py::object& vertices, const py::object& triangles, double margin, std::string name) {
             return TriangleMesh(points_arg(vertices, "vertices"), triangles_arg(triangles), margin, std::move(name));
           }),
           py::arg("vertices"), py::arg("triangles"), py::arg("margin") = 0.0, py::arg("name") = "",
           "TriangleMesh(vertices (V, 3) float, triangles (T, 3) int, margin=0, name='').")
      .def_static(
          "from_file",
          [](const std::filesystem::path& path, double scale, double margin) {
            return read_mesh(path, {.scale = scale, .margin = margin});
          },
          py::arg("path"), py::arg("scale") = 1.0, py::arg("margin") = 0.0,
          "Reads an OBJ, STL (ASCII or binary) or PLY file; as read_mesh().")
      .def_property_readonly(
          "vertices", [](const TriangleMesh& t) { return to_array(t.vertices()); }, "Vertices (V, 3).")
      .def_property_readonly("triangles", &triangles_array, "Vertex indices (T, 3).")
      .def_property_readonly("triangle_count", &TriangleMesh::triangle_count)
      .def_property_readonly("margin", &TriangleMesh::margin)
      .def_property_readonly("name", &TriangleMesh::name)
      .def_property_readonly("is_closed", &TriangleMesh::is_closed,
                             "Every edge is shared by exactly two triangles, in opposite directions.")
      .def("with_margin", &TriangleMesh::with_margin, py::arg("margin"), "The same triangles with another margin.")
      .def(
          "aabb", [](const TriangleMesh& t) { return to_array(t.local_aabb()); },
          "Local bounds (2, 3), margin included.")
      .def(
          "mass_properties",
          [](const TriangleMesh& t) -> py::object {
            const auto p = t.mass_properties();
            return p ? py::cast(*p) : py::none();
          },
          "MassProperties of the enclosed solid for a closed mesh, None for an open one.")
      .def(py::pickle(&mesh_state, &restore_mesh))
      .def("__repr__", [](const TriangleMesh& t) {
        return "TriangleMesh(" + std::to_string(t.vertices().size()) + " vertices, " +
               std::to_string(t.triangle_count()) + " triangles, margin=" + repr(t.margin()) + ")";
      });

  m.def(
      "read_mesh",
      [](const std::filesystem::path& path, double scale, double margin) {
        return read_mesh(path, {.scale = scale, .margin = margin});
      },
      py::arg("path"), py::arg("scale") = 1.0, py::arg("margin") = 0.0,
      "Reads an OBJ, STL (ASCII or binary) or PLY mesh, vertices times `scale`, with `margin`. Errors "
      "(proxima.Error, a ValueError) name the file, the line or byte and the reason.");

  py::class_<Bvh>(m, "Bvh",
                  "A TriangleMesh with its bounding-volume hierarchy, built once: the form the queries take. "
                  "Immutable; share it between queries and threads.")
      .def(py::init([](const TriangleMesh& mesh, const std::string& volume, int leaf_size, const std::string& split,
                       int threads) {
             BvhOptions o;
             o.volume = volume_arg(volume);
             o.split = split_arg(split);
             o.leaf_size = leaf_size;
             o.threads = threads;
             py::gil_scoped_release unlocked;
             return Bvh(mesh, o);
           }),
           py::arg("mesh"), py::arg("volume") = "rss", py::arg("leaf_size") = 4, py::arg("split") = "sah",
           py::arg("threads") = 0,
           "Bvh(mesh, volume='rss' | 'obb' | 'aabb', leaf_size=1..8, split='sah' | 'median', threads=0). The "
           "default rectangle swept spheres speed up mesh-mesh distance. The build runs on `threads` threads "
           "(0: every hardware thread; the same hierarchy whatever the count), without the GIL.")
      .def_property_readonly("mesh", &Bvh::mesh)
      .def_property_readonly("depth", &Bvh::depth)
      .def_property_readonly(
          "node_count", [](const Bvh& b) { return b.nodes().size(); })
      .def_property_readonly("total_bytes", &Bvh::total_bytes, "Memory of the mesh and the hierarchy.")
      .def_property_readonly("build_seconds", &Bvh::build_seconds)
      .def_property_readonly(
          "volume", [](const Bvh& b) { return volume_name(b.options().volume); }, "'rss', 'obb' or 'aabb'.")
      .def_property_readonly(
          "leaf_size", [](const Bvh& b) { return b.options().leaf_size; }, "Most triangles per leaf.")
      .def_property_readonly(
          "split", [](const Bvh& b) { return split_name(b.options().split); }, "'sah' or 'median'.")
      .def(py::pickle(&bvh_state, &restore_bvh))
      .def("__repr__", [](const Bvh& b) {
        return "Bvh(" + std::to_string(b.mesh().triangle_count()) + " triangles, depth " + std::to_string(b.depth()) +
               ")";
      });
}

}  // namespace proxima::python
