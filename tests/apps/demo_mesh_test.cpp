// SPDX-License-Identifier: BSD-3-Clause
// The mesh-contact section of `proxima demo`: resting cubes are
// supported by their clustered contacts, the clustered wrench is stable under
// 1e-6 perturbations, the mug is held on both sides, and the report has the
// section.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "demo.hpp"
#include "demo_mesh.hpp"

namespace proxima::apps {
namespace {

TEST(DemoMesh, CubesAreSupportedAndTheMugIsHeldOnBothSides) {
  const auto rows = run_mesh_contact_demo();
  ASSERT_EQ(rows.size(), 3u);
  for (std::size_t i = 0; i < 2; ++i) {
    const MeshContactDemoRow& r = rows[i];
    SCOPED_TRACE(r.scene);
    EXPECT_FALSE(r.skipped);
    EXPECT_TRUE(r.supports) << r.support_detail;  // CoP inside the face, centre over the support polygon
    EXPECT_GE(r.distinct, 4u);                     // at least the face's corners
    EXPECT_LE(r.clustered, 20u);
    EXPECT_GE(r.raw, r.clustered);
  }
  // The raw contacts of a face lying on a finely meshed face move with the
  // pose: 1e-6 m on a 1 mm depth is 1e-3 of the force.
  EXPECT_LT(rows[1].raw_force_change, 1e-2);
  EXPECT_LT(rows[1].raw_torque_change, 1e-2);
  EXPECT_EQ(rows[0].triangles, 12u);
  EXPECT_EQ(rows[1].triangles, 12u * 16u * 16u);
  const MeshContactDemoRow& mug = rows[2];
  // scripts/deps.sh installs the scanned mug (libmujoco-samples): it is tested, never skipped.
  ASSERT_FALSE(mug.skipped) << mug.note;
  EXPECT_TRUE(mug.supports) << mug.support_detail;  // contacts on both sides
  EXPECT_LE(mug.clustered, 40u);                     // 20 per side
  EXPECT_LT(mug.raw_force_change, 1e-2);
}

// The stability bound: perturbing a resting pose by 1e-6 m / 1e-6 rad
// changes a set's penalty force and torque by about the relative depth
// change (1e-3 on a 1 mm layer); 1e-2 leaves room. Holds for the clustered
// sets of the coarse cubes (their 4 corners) and the mug, and for the raw
// sets of the subdivided cube and the mug. Not (measured 2026-11-21):
// - the coarse cubes' raw set (|dF|/|F| 0.55): a 1e-6 shift changes how
//   many copies of the corners the triangle pairs give (the raw set is the
//   paper's, copies included; the clustered set merges them);
// - the subdivided cube's clustered set (0.33): its patch is a few hull
//   vertices, and a perturbation adds or drops one near an edge, a whole
//   point of a penalty sum (a complementarity solver sees the same support
//   polygon). MeshContacts.ClusteredWrenchIsStableUnderTinyPerturbations
//   measures the paper's clustering without patch hulls there.
TEST(DemoMesh, WrenchIsStableUnderTinyPerturbationsWhereTheSetIsContinuous) {
  const auto rows = run_mesh_contact_demo();
  ASSERT_EQ(rows.size(), 3u);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const MeshContactDemoRow& r = rows[i];
    SCOPED_TRACE(r.scene);
    ASSERT_FALSE(r.skipped) << r.note;
    if (i != 1) {
      EXPECT_LT(r.force_change, 1e-2);
      EXPECT_LT(r.torque_change, 1e-2);
    }
    if (i != 0) {
      EXPECT_LT(r.raw_force_change, 1e-2);
      EXPECT_LT(r.raw_torque_change, 1e-2);
    }
  }
}

TEST(DemoMesh, MissingMugIsASkippedRowWithANote) {
  const auto rows = run_mesh_contact_demo("/nonexistent/mug.obj");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_TRUE(rows[2].skipped);
  std::ostringstream md;
  mesh_contact_markdown(rows, md);
  EXPECT_NE(md.str().find("skipped: /nonexistent/mug.obj not found"), std::string::npos) << md.str();
}

TEST(DemoMesh, ReportHasTheSection) {
  DemoOptions o;
  o.bench = false;
  o.sim = false;
  o.report_dir = ::testing::TempDir() + "proxima_demo_mesh_report";
  std::ostringstream out;
  EXPECT_EQ(run_demo(o, out), 0) << out.str();
  std::ifstream f(o.report_dir + "/report.md");
  std::stringstream report;
  report << f.rdbuf();
  const std::string md = report.str();
  const std::size_t at = md.find("## Mesh contacts (BLEM)");
  ASSERT_NE(at, std::string::npos) << md;
  EXPECT_NE(md.find("| 12-triangle cube (10 cm) on a 12-triangle cube", at), std::string::npos);
  EXPECT_NE(md.find("cube subdivided 16x16", at), std::string::npos);
  EXPECT_NE(md.find("mug", at), std::string::npos);
  std::filesystem::remove_all(o.report_dir);
}

}  // namespace
}  // namespace proxima::apps
