# SPDX-License-Identifier: BSD-3-Clause
"""package.xml is a valid ROS package manifest (format 3, read and validated by
catkin_pkg, the library colcon and rosdep read it with), a plain CMake
package, and carries the project's version and licence.

    python3 package_xml_test.py REPOSITORY_ROOT"""
import os
import re
import sys

from catkin_pkg.package import parse_package


def main(root):
    package = parse_package(os.path.join(root, "package.xml"))
    package.validate()
    problems = []
    with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as f:
        version = re.search(r"project\(proxima VERSION (\S+)", f.read()).group(1)
    if package.package_format != 3:
        problems.append("format %s, not 3" % package.package_format)
    if package.name != "proxima":
        problems.append("name %r" % package.name)
    if package.version != version:
        problems.append("version %s, but CMakeLists.txt says %s" % (package.version, version))
    if [str(l) for l in package.licenses] != ["BSD-3-Clause"]:
        problems.append("licences %s" % package.licenses)
    if package.get_build_type() != "cmake":
        problems.append("build type %s, not cmake" % package.get_build_type())
    for p in problems:
        print("package.xml: " + p)
    print("package.xml: %s %s, %d dependencies, build type %s" %
          (package.name, package.version, len(package.build_depends) + len(package.exec_depends),
           package.get_build_type()))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
