// SPDX-License-Identifier: BSD-3-Clause
// The replay page's data (html_replay.hpp, replay_page.hpp, query_page.hpp):
// frame sampling within its budget, each shape kind described by its own
// numbers, geometry stored once, text that cannot end the page's script,
// and the --html flag's errors. The page itself is loaded in a browser by
// tests/apps/viewer_test.py.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/robot/urdf.hpp>
#include <proxima/sim/body.hpp>

#include "html_replay.hpp"
#include "json_reader.hpp"
#include "query_page.hpp"
#include "query_protocol.hpp"
#include "replay_page.hpp"
#include "scene.hpp"
#include "../support/temp_files.hpp"

namespace proxima::apps {
namespace {

using nlohmann::json;

// A sphere above a static floor box and a second, identical box: two shapes.
constexpr const char* kReplayScene = R"({
  "name": "replay", "dt": 0.001, "time": 0.05,
  "bodies": [
    {"name": "floor", "static": true, "shape": {"shape": "box", "size": [2, 2, 0.2]}, "pose": {"p": [0, 0, -0.1]}},
    {"name": "crate", "shape": {"shape": "box", "size": [2, 2, 0.2]}, "density": 10, "pose": {"p": [0, 0, 1]}},
    {"name": "ball", "shape": {"shape": "sphere", "radius": 0.25}, "density": 1000, "pose": {"p": [0.3, -0.2, 0.26]}}
  ]
})";

std::string replay_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Frames kept for `steps` steps at stride s: 0, s, 2s, … and the last step.
int expected_frames(int steps, int stride) { return 1 + steps / stride + (steps % stride != 0 ? 1 : 0); }

TEST(HtmlReplay, FramesStayWithinTheBudgetAndEndAtTheLastStep) {
  Scene scene = scene_from_json(parse_json(kReplayScene));
  int checked = 0;
  for (int steps : {1, 2, 7, 599, 600, 601, 1198, 60000, 123457}) {
    for (int budget : {2, 3, 600}) {
      SimReplay r(scene.world, "t", steps, budget);
      // The world is not stepped: sampling depends on the step count alone.
      for (int i = 0; i < steps; ++i) r.observe(scene.world);
      const json d = r.data();
      const int n = static_cast<int>(d["frames"].size());
      EXPECT_LE(n, budget) << steps << " steps, budget " << budget;
      EXPECT_EQ(n, expected_frames(steps, r.stride())) << steps << " steps, budget " << budget;
      EXPECT_EQ(d["frames"].front()["step"], 0);
      EXPECT_EQ(d["frames"].back()["step"], steps);
      // The stride is the smallest that fits: one less would overflow.
      if (r.stride() > 1) {
        EXPECT_GT(expected_frames(steps, r.stride() - 1), budget) << steps << " steps";
      }
      for (const char* t : {"kinetic energy", "potential energy", "contacts"}) {
        bool found = false;
        for (const json& tl : d["timelines"])
          if (tl["name"] == t) found = tl["values"].size() == static_cast<std::size_t>(n);
        EXPECT_TRUE(found) << t;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 27);
  EXPECT_NE(replay_error_of([&] { SimReplay(scene.world, "t", 10, 1); }).find("at least 2"), std::string::npos);
}

TEST(HtmlReplay, RecordsPosesContactsAndSharedShapes) {
  Scene scene = scene_from_json(parse_json(kReplayScene));
  const int steps = 50;
  SimReplay r(scene.world, "replay", steps, 600);
  for (int i = 0; i < steps; ++i) {
    scene.world.step();
    r.observe(scene.world);
  }
  const json d = r.data();
  ASSERT_EQ(d["bodies"].size(), 3u);
  EXPECT_EQ(d["shapes"].size(), 2u);  // floor and crate share their box
  EXPECT_EQ(d["bodies"][0]["shape"], d["bodies"][1]["shape"]);
  EXPECT_TRUE(d["bodies"][0]["static"].get<bool>());
  EXPECT_FALSE(d["bodies"][2]["static"].get<bool>());
  ASSERT_EQ(d["frames"].size(), 51u);
  // Poses list the dynamic bodies only; the ball starts where the scene put it.
  const json& first = d["frames"][0]["poses"];
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[1], json::array({0.3, -0.2, 0.26, 1, 0, 0, 0}));
  // The ball starts 1 cm above the floor and meets it within 50 ms (free
  // fall covers 1.2 cm): its contact is at the floor, below its centre.
  const json& last = d["frames"].back();
  ASSERT_FALSE(last["contacts"].empty());
  int ball_contacts = 0;
  for (const json& c : last["contacts"]) {
    ASSERT_EQ(c.size(), 7u);
    if (std::abs(c[0].get<double>() - 0.3) < 1e-3 && std::abs(c[1].get<double>() + 0.2) < 1e-3) {
      EXPECT_NEAR(c[2].get<double>(), 0.0, 2e-3);
      EXPECT_NEAR(std::abs(c[5].get<double>()), 1.0, 1e-3);  // a vertical normal
      ++ball_contacts;
    }
  }
  EXPECT_EQ(ball_contacts, 1);
  EXPECT_NEAR(last["time"].get<double>(), 0.05, 1e-12);
}

TEST(HtmlReplay, RobotLinksAreMovingBodiesPosedByTheirJoints) {
  // A 1 m plate on a pivot about +y (positive q turns its x axis down),
  // falling under gravity from level: the plate's box, centred 0.5 m out,
  // is at (0.5 cos q, 0, −0.5 sin q), turned by q about y, in every frame.
  const testing::TempDir dir;
  const std::string urdf = dir.write("arm.urdf", R"(<robot name="arm"><link name="base"/>
    <link name="plate"><inertial><origin xyz="0.5 0 0"/><mass value="2"/>
      <inertia ixx="0.02" iyy="0.17" izz="0.18" ixy="0" ixz="0" iyz="0"/></inertial>
      <collision><origin xyz="0.5 0 0"/><geometry><box size="1 0.3 0.04"/></geometry></collision></link>
    <joint name="pivot" type="continuous"><parent link="base"/><child link="plate"/><axis xyz="0 1 0"/></joint>
    </robot>)").string();
  const robot::RobotGeometry g(robot::load_urdf(urdf));
  sim::World w;
  w.add(sim::make_body("floor", Box(Vec3(4, 4, 0.1)), 0.0, Transform::from_translation(Vec3(0, 0, -2)), true));
  robot::RobotWorld rw(g, Transform::identity(), {Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1)}, std::move(w));
  constexpr int steps = 20;
  SimReplay r(rw, g, "arm", steps);
  std::vector<double> q{0.0};
  for (int i = 0; i < steps; ++i) {
    rw.step();
    r.observe(rw);
    q.push_back(rw.robot().state().q[0]);
  }
  EXPECT_GT(q.back(), 1e-3);  // it fell
  const json d = r.data();
  ASSERT_EQ(d["bodies"].size(), 2u);
  EXPECT_EQ(d["bodies"][1]["name"], "arm/plate");
  EXPECT_EQ(d["bodies"][1]["static"], false);
  const json& box = d["shapes"][d["bodies"][1]["shape"].get<std::size_t>()];
  EXPECT_EQ(box["kind"], "box");
  EXPECT_EQ(box["size"], json::parse("[1, 0.3, 0.04]"));
  ASSERT_EQ(d["frames"].size(), static_cast<std::size_t>(steps + 1));
  for (std::size_t k = 0; k < d["frames"].size(); ++k) {
    const json& poses = d["frames"][k]["poses"];
    ASSERT_EQ(poses.size(), 1u);  // the floor is static
    const double a = q[k];
    const double expected[7] = {0.5 * std::cos(a), 0.0, -0.5 * std::sin(a), std::cos(a / 2), 0.0, std::sin(a / 2), 0.0};
    for (int i = 0; i < 7; ++i) EXPECT_NEAR(poses[0][static_cast<std::size_t>(i)].get<double>(), expected[i], 2e-6) << k;
  }
}

TEST(HtmlReplay, ContactsBeyondTheBudgetAreCounted) {
  Scene scene = scene_from_json(parse_json(kReplayScene));
  SimReplay r(scene.world, "replay", 50, 600, 0);
  for (int i = 0; i < 50; ++i) {
    scene.world.step();
    r.observe(scene.world);
  }
  const json d = r.data();
  const json& last = d["frames"].back();
  EXPECT_TRUE(last["contacts"].empty());
  ASSERT_TRUE(last.contains("contacts_total"));
  EXPECT_EQ(last["contacts_total"].get<std::size_t>(), scene.world.last_contacts().size());
  EXPECT_GT(last["contacts_total"].get<int>(), 0);
}

TEST(ReplayPage, RoundsToSixSignificantDigits) {
  EXPECT_EQ(json(round_significant(0.123456789)).dump(), "0.123457");
  EXPECT_EQ(json(round_significant(-98765.4321)).dump(), "-98765.4");
  EXPECT_EQ(json(round_significant(1e-12)).dump(), "0.0");
  EXPECT_EQ(json(round_significant(std::nan(""))).dump(), "0.0");
  EXPECT_EQ(json(round_significant(2.0 / 3.0, 4)).dump(), "0.6667");
  // The quantum: rounding noise of a normal vanishes, positions keep 1 µm.
  EXPECT_EQ(json(round_significant(-2.003e-7, 4, kNormalQuantum)).dump(), "0.0");
  EXPECT_EQ(json(round_significant(0.04999912, 6, kPositionQuantum)).dump(), "0.049999");
  EXPECT_EQ(json(round_significant(123.4567891, 6, kPositionQuantum)).dump(), "123.457");
  // A quarter turn about z: q = (cos 45°, 0, 0, sin 45°), w first.
  const json p = pose_array(Transform::from_axis_angle(Vec3::UnitZ(), M_PI / 2, Vec3(1, 2, 3)));
  EXPECT_EQ(p, json::array({1, 2, 3, 0.707107, 0, 0, 0.707107}));
  // −q is the same rotation: the page stores the one with w ≥ 0.
  const json n = pose_array(Transform::from_quaternion(-0.6, 0.0, -0.8, 0.0, Vec3::Zero()));
  EXPECT_EQ(n, json::array({0, 0, 0, 0.6, 0, 0.8, 0}));
}

TEST(ReplayPage, EachShapeKindIsDescribedByItsOwnNumbers) {
  EXPECT_EQ(shape_json(Sphere(0.5)), json::parse(R"({"kind": "sphere", "radius": 0.5})"));
  EXPECT_EQ(shape_json(Box(Vec3(1, 2, 3), 0.01)), json::parse(R"({"kind": "box", "size": [1, 2, 3], "margin": 0.01})"));
  EXPECT_EQ(shape_json(Capsule(0.1, 0.4)), json::parse(R"({"kind": "capsule", "radius": 0.1, "length": 0.4})"));
  EXPECT_EQ(shape_json(Cylinder(0.2, 0.6)), json::parse(R"({"kind": "cylinder", "radius": 0.2, "length": 0.6})"));
  EXPECT_EQ(shape_json(Cone(0.3, 0.9)), json::parse(R"({"kind": "cone", "radius": 0.3, "length": 0.9})"));
  EXPECT_EQ(shape_json(Ellipsoid(Vec3(0.1, 0.2, 0.3))),
            json::parse(R"({"kind": "ellipsoid", "radii": [0.1, 0.2, 0.3]})"));
  EXPECT_EQ(shape_json(Halfspace(Vec3(0, 0, 2), 0.5)),
            json::parse(R"({"kind": "halfspace", "normal": [0, 0, 1], "offset": 0.5})"));
  // A tetrahedron with an interior point: the hull's 4 vertices and 4 triangles.
  const json t = shape_json(ConvexPolytope({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1),
                                            Vec3(0.1, 0.1, 0.1)}));
  EXPECT_EQ(t["kind"], "convex");
  EXPECT_EQ(t["vertices"].size(), 12u);
  ASSERT_EQ(t["faces"].size(), 4u);
  int corners = 0;
  for (const json& f : t["faces"]) {
    EXPECT_EQ(f.size(), 3u);
    for (const json& i : f) {
      EXPECT_LT(i.get<int>(), 4);
      ++corners;
    }
  }
  EXPECT_EQ(corners, 12);
  const TriangleMesh m({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}, {TriangleIndices{0, 1, 2}}, 0.002);
  EXPECT_EQ(mesh_json(m),
            json::parse(R"({"kind": "mesh", "vertices": [0, 0, 0, 1, 0, 0, 0, 1, 0], "triangles": [0, 1, 2],
                            "margin": 0.002})"));
  ShapeTable table;
  EXPECT_EQ(table.add(shape_json(Sphere(1))), 0);
  EXPECT_EQ(table.add(shape_json(Sphere(2))), 1);
  EXPECT_EQ(table.add(shape_json(Sphere(1))), 0);
  EXPECT_EQ(table.shapes().size(), 2u);
}

// The data object between the page's JSON script tags.
json embedded_data(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"proxima-data\">";
  const std::size_t a = page.find(open);
  const std::size_t b = page.find("</script>", a);
  if (a == std::string::npos || b == std::string::npos) return json();
  return json::parse(page.substr(a + open.size(), b - a - open.size()));
}

TEST(ReplayPage, PageTextCannotEndItsScriptOrComment) {
  ThreeJs three{"/*three*/ var THREE = {};", "/*controls*/", "Copyright three.js authors\n-- a --> b ---\n"};
  const json data{{"title", "a <b> & \"c\""},
                  {"bodies", json::array({{{"name", "</script><!-- x"}}})},
                  {"frames", json::array()}};
  const std::string page = replay_page_html(data, three);
  EXPECT_NE(page.find("/*three*/ var THREE = {};"), std::string::npos);
  EXPECT_NE(page.find("/*controls*/"), std::string::npos);
  EXPECT_NE(page.find("Copyright three.js authors"), std::string::npos);
  EXPECT_NE(page.find("<title>a &lt;b&gt; &amp; &quot;c&quot;</title>"), std::string::npos);
  // The licence sits in one comment that nothing inside ends early.
  const std::size_t licence = page.find("Copyright three.js authors");
  const std::size_t comment = page.rfind("<!--", licence);
  const std::size_t end = page.find("-->", comment);
  ASSERT_NE(comment, std::string::npos);
  EXPECT_GT(end, licence);
  EXPECT_EQ(page.substr(comment + 4, end - comment - 4).find("--"), std::string::npos);
  // The body name comes back whole from the page's JSON.
  EXPECT_EQ(page.find("</script><!-- x"), std::string::npos);
  EXPECT_EQ(embedded_data(page), data);
  EXPECT_EQ(page.find("{{"), std::string::npos);
  for (const char* bad : {"x = '</script>';", "x = '</SCRIPT>';", "x = '<!--';"}) {
    three.library = bad;
    EXPECT_NE(replay_error_of([&] { (void)replay_page_html(data, three); }).find("cannot be inlined"), std::string::npos)
        << bad;
  }
}

TEST(ReplayPage, HtmlFlagErrorsNameTheFlag) {
  EXPECT_EQ(replay_error_of([] { ReplayPageFile("", "--html"); }), "--html: needs a file name");
  const std::string unwritable = replay_error_of([] { ReplayPageFile("/nonexistent-dir/page.html", "--html"); });
  EXPECT_EQ(unwritable.rfind("--html: /nonexistent-dir/page.html: cannot write", 0), 0u) << unwritable;
  ::setenv("PROXIMA_LIBJS_THREE_PREFIX", "/nonexistent-prefix", 1);
  const std::string absent = replay_error_of([] { ReplayPageFile("/tmp/unused.html", "--html"); });
  ::unsetenv("PROXIMA_LIBJS_THREE_PREFIX");
  EXPECT_EQ(absent.rfind("--html: /nonexistent-prefix/share/javascript/three/three.min.js: not found", 0), 0u)
      << absent;
  EXPECT_NE(absent.find("libjs-three"), std::string::npos) << absent;
}

TEST(ReplayPage, SimCommandWritesThePageOrNamesTheFlag) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("proxima_html_replay_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string scene = (dir / "scene.json").string();
  std::ofstream(scene) << kReplayScene;
  SimCommandOptions o;
  o.progress = false;
  o.html_path = (dir / "page.html").string();
  std::ostringstream out, err;
  EXPECT_EQ(run_sim_command(scene, o, out, err), 0) << err.str();
  std::ifstream in(*o.html_path);
  std::stringstream page;
  page << in.rdbuf();
  const json d = embedded_data(page.str());
  EXPECT_EQ(d["format"], "proxima-replay");
  EXPECT_EQ(d["frames"].size(), 51u);  // 0.05 s at 1 ms: 50 steps and the start
  EXPECT_NE(page.str().find("three.js authors"), std::string::npos);

  o.html_path = (dir / "missing" / "page.html").string();
  std::ostringstream out2, err2;
  EXPECT_EQ(run_sim_command(scene, o, out2, err2), 1);
  EXPECT_NE(err2.str().find("proxima sim: --html: "), std::string::npos) << err2.str();
  EXPECT_EQ(out2.str(), "");  // it failed before the run
  std::filesystem::remove_all(dir);
}

TEST(QueryPage, DrawsShapesWitnessesAndContacts) {
  QueryReplay page(2);
  MeshFiles files;
  // Two unit spheres 3 m apart: witness points at x = 1 and x = 2.
  const json distance = json::parse(R"({"id": 1, "query": "distance", "a": {"shape": "sphere", "radius": 1},
    "b": {"shape": "sphere", "radius": 1}, "pose_b": {"p": [3, 0, 0]}})");
  EXPECT_TRUE(page.add(distance, answer(distance), files));
  // A box resting 1 cm into a floor box: four corner contacts.
  const json contacts = json::parse(R"({"id": 2, "query": "contacts", "a": {"shape": "box", "size": [1, 1, 1]},
    "pose_a": {"p": [0, 0, 0.49]}, "b": {"shape": "box", "size": [4, 4, 1]}, "pose_b": {"p": [0, 0, -0.5]}})");
  EXPECT_TRUE(page.add(contacts, answer(contacts), files));
  const json bad = json::parse(R"({"id": 3, "query": "distance", "a": {"shape": "sphere", "radius": -1}})");
  EXPECT_FALSE(page.add(bad, answer(bad), files));
  const json tol = json::parse(R"({"id": 4, "query": "tolerance", "tolerance": 0.1,
    "a": {"shape": "sphere", "radius": 1},
    "b": {"shape": "sphere", "radius": 1}})");
  EXPECT_FALSE(page.add(tol, answer(tol), files));
  EXPECT_FALSE(page.add(distance, answer(distance), files));  // beyond the budget of 2
  EXPECT_EQ(page.skipped(), 1);
  const json d = page.data();
  ASSERT_EQ(d["frames"].size(), 2u);
  EXPECT_EQ(d["shapes"].size(), 3u);  // the sphere once, two boxes
  const json& f0 = d["frames"][0];
  EXPECT_EQ(f0["shapes"], json::array({0, 0}));
  ASSERT_EQ(f0["segments"].size(), 1u);
  const json& s = f0["segments"][0];
  ASSERT_EQ(s.size(), 6u);
  const double expected[6] = {1, 0, 0, 2, 0, 0};
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(s[k].get<double>(), expected[k], 1e-6) << k;
  EXPECT_EQ(f0["poses"][1], json::array({3, 0, 0, 1, 0, 0, 0}));
  const json& f1 = d["frames"][1];
  ASSERT_EQ(f1["contacts"].size(), 4u);
  for (const json& c : f1["contacts"]) {
    EXPECT_NEAR(std::abs(c[0].get<double>()), 0.5, 1e-6);
    EXPECT_NEAR(std::abs(c[1].get<double>()), 0.5, 1e-6);
    EXPECT_NEAR(c[5].get<double>(), 1.0, 1e-4);  // B→A: up, out of the floor
    EXPECT_NEAR(c[6].get<double>(), 0.01, 1e-4);
  }
  EXPECT_NE(d["title"].get<std::string>().find("1 more not drawn"), std::string::npos);
}

}  // namespace
}  // namespace proxima::apps
