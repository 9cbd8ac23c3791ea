"""A folder of a test's own, made before each test and removed after it, and the files the test writes there."""
import json
import os
import shutil
import tempfile


class TemporaryFolder:
    """Mixed into a unittest.TestCase; a subclass that sets up more calls super().setUp() first."""

    prefix = "gpubench-test-"

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix=self.prefix)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def write_doc(self, name, doc):
        return self.write(name, json.dumps(doc))
