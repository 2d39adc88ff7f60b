// SPDX-License-Identifier: BSD-3-Clause
// Reading an input file: each reason it cannot be read is named as itself.
#include <string>

#include <gtest/gtest.h>

#include <proxima/io/file.hpp>

#include "io_test_support.hpp"

namespace proxima {
namespace {

using test::expect_error;
using test::TempDir;

TEST(InputFile, EachProblemIsNamed) {
  TempDir dir;
  const std::filesystem::path file = dir.write("scene.json", "{\"bodies\": []}");
  EXPECT_EQ(file_problem(file), "");
  EXPECT_EQ(file_problem(dir.path() / "missing.json"), "no such file");
  EXPECT_EQ(file_problem(dir.path()), "a directory, not a regular file");
  // A character device: opening it succeeds and reading never ends.
  EXPECT_EQ(file_problem("/dev/zero"), "not a regular file (a device, pipe or socket)");
  EXPECT_NE(file_problem(file / "below-a-file"), "");
}

TEST(InputFile, ReadWholeFileNamesWhatAndWhere) {
  TempDir dir;
  EXPECT_EQ(read_whole_file(dir.write("a.txt", std::string("x\0y", 3)), "test file"), std::string("x\0y", 3));
  EXPECT_EQ(read_whole_file(dir.write("empty.txt", ""), "test file"), "");
  expect_error([&] { read_whole_file(dir.path(), "scene file"); },
               {"scene file '", dir.path().string(), "': a directory, not a regular file"});
  expect_error([] { read_whole_file("/dev/zero", "URDF file"); }, {"URDF file '/dev/zero'", "not a regular file"});
  expect_error([&] { read_whole_file(dir.path() / "nope", "cell file"); }, {"nope'", "no such file"});
}

TEST(InputFile, MeshReadersSayNotARegularFile) {
  expect_error([] { read_mesh("/dev/zero.stl"); }, {"/dev/zero.stl", "no such file"});
  TempDir dir;
  std::filesystem::create_directory(dir.path() / "parts.obj");
  expect_error([&] { read_mesh(dir.path() / "parts.obj"); }, {"parts.obj", "a directory, not a regular file"});
}

}  // namespace
}  // namespace proxima
