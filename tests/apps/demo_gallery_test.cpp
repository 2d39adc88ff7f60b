// SPDX-License-Identifier: BSD-3-Clause
// The demo's query gallery (queries.html): one frame per answered example,
// labelled with its configuration; the distance segment and the contact
// points are where the configurations' closed forms put them.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <proxima/core/error.hpp>

#include "../support/temp_files.hpp"

#include "demo.hpp"
#include "demo_mesh.hpp"

namespace proxima {
namespace {

using nlohmann::json;

json gallery_page_data(const std::filesystem::path& page) {
  std::ifstream f(page);
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const std::string open = "<script type=\"application/json\" id=\"proxima-data\">";
  const std::size_t a = text.find(open);
  const std::size_t b = text.find("</script>", a);
  if (a == std::string::npos || b == std::string::npos) return json();
  return json::parse(text.substr(a + open.size(), b - a - open.size()));
}

const json* frame_labelled(const json& data, const std::string& start) {
  for (const json& f : data["frames"])
    if (f["label"].get<std::string>().rfind(start, 0) == 0) return &f;
  return nullptr;
}

TEST(DemoGallery, EveryAnsweredExampleIsAFrameWhereItsClosedFormSays) {
  const testing::TempDir dir;
  const std::filesystem::path page = dir.path() / "queries.html";
  // 12 example queries, one of them invalid (a negative radius: not drawn), and 7 manifolds.
  ASSERT_EQ(apps::write_query_gallery(page.string()), 11 + 7);
  const json data = gallery_page_data(page);
  ASSERT_EQ(data["frames"].size(), 18u);

  // Unit spheres, A at x = 3: the segment joins (2, 0, 0) on A to (1, 0, 0) on B.
  const json* spheres = frame_labelled(data, "unit spheres 3 m apart");
  ASSERT_NE(spheres, nullptr);
  ASSERT_EQ((*spheres)["segments"].size(), 1u);
  const json& s = (*spheres)["segments"][0];
  const double expected[6] = {2, 0, 0, 1, 0, 0};
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(s[i].get<double>(), expected[i], 1e-6) << i;
  EXPECT_NE((*spheres)["label"].get<std::string>().find("distance 1 m"), std::string::npos);

  // A unit box 1 cm deep in a 2 × 2 slab: its four bottom corners, normal +z, depth 0.01.
  const json* resting = frame_labelled(data, "unit box resting 1 cm deep");
  ASSERT_NE(resting, nullptr);
  const json& contacts = (*resting)["contacts"];
  ASSERT_EQ(contacts.size(), 4u);
  int corners = 0;
  for (const json& c : contacts) {
    EXPECT_NEAR(std::abs(c[0].get<double>()), 0.5, 1e-6);
    EXPECT_NEAR(std::abs(c[1].get<double>()), 0.5, 1e-6);
    EXPECT_NEAR(c[5].get<double>(), 1.0, 1e-4);  // normal z
    EXPECT_NEAR(c[6].get<double>(), 0.01, 1e-6);  // depth
    corners |= 1 << (2 * (c[0].get<double>() > 0) + (c[1].get<double>() > 0));
  }
  EXPECT_EQ(corners, 0b1111) << "each corner once";

  // The invalid example is not drawn; every frame names its configuration.
  EXPECT_EQ(frame_labelled(data, "bad input"), nullptr);
  for (const json& f : data["frames"]) EXPECT_NE(f["label"].get<std::string>().find(": "), std::string::npos);
}

TEST(DemoGallery, TheMugBetweenItsPlatesHasItsRimContacts) {
  const testing::TempDir dir;
  const std::filesystem::path page = dir.path() / "mug.html";
  // scripts/deps.sh installs the mug; the page is one frame per plate.
  ASSERT_TRUE(std::filesystem::exists(apps::default_mug_path())) << "install libmujoco-samples";
  ASSERT_EQ(apps::write_mug_contacts_page(page.string()), 2);
  const json data = gallery_page_data(page);
  // The mug 0.5 mm below the upper plate and above the lower one, in a 1 mm
  // layer: contacts on its rim pushed down by the upper plate (normal −z, B
  // to A) and up by the lower one, each at most 0.5 mm deep.
  for (const char* side : {"above", "below"}) {
    const json* mug = frame_labelled(data, std::string("scanned mug, boundary-layer contacts with the plate ") + side);
    ASSERT_NE(mug, nullptr) << side;
    const json& cs = (*mug)["contacts"];
    EXPECT_GE(cs.size(), 3u) << side;
    for (const json& c : cs) {
      EXPECT_NEAR(c[5].get<double>(), side[0] == 'a' ? -1.0 : 1.0, 0.05) << side;
      EXPECT_GT(c[6].get<double>(), 0.0);
      EXPECT_LE(c[6].get<double>(), 0.0005 + 1e-6);
    }
  }
  EXPECT_EQ(apps::write_mug_contacts_page((dir.path() / "none.html").string(), "/nonexistent/mug.obj"), 0);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "none.html"));
}

TEST(DemoGallery, AnUnwritablePathIsAnError) {
  const testing::TempDir dir;
  EXPECT_THROW(apps::write_query_gallery((dir.path() / "missing" / "queries.html").string()), Error);
}

}  // namespace
}  // namespace proxima
