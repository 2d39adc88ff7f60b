# SPDX-License-Identifier: BSD-3-Clause
"""One version number: the module reports project(proxima VERSION …) of CMakeLists.txt."""
import pathlib
import re
import unittest

import proxima


class Version(unittest.TestCase):
    def test_module_reports_the_project_version(self):
        text = (pathlib.Path(__file__).resolve().parents[2] / "CMakeLists.txt").read_text()
        project = re.search(r"project\(proxima VERSION ([0-9]+\.[0-9]+\.[0-9]+)", text)
        self.assertIsNotNone(project)
        self.assertEqual(proxima.__version__, project.group(1))


if __name__ == "__main__":
    unittest.main()
