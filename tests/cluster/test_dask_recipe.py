"""The cluster recipe (python/partplay_dask.py) on a 2-worker Dask LocalCluster: a generated
multi-file export of at least 200 MB and 2,000,000 logical partitions, analysed in parts cut into
buckets, merged bucket by bucket and summarised, gives byte for byte the report of one pass over
the files concatenated; so do byte ranges of the files as one, the bucket files shuffled through
Dask's transfers instead of a shared directory, and a run whose worker is killed in the middle
(Dask runs its tasks again elsewhere, and computes again what the dead worker held). Bad inputs stop the run with partplay's located error. Authored.

    /usr/bin/python3 -m unittest discover -s tests/cluster -v
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "python"))
import partplay_dask  # noqa: E402

PARTPLAY = os.path.join(ROOT, "build", "native", "partplay")
FILES = 8
ITEMS = 2_300_000          # about 100 bytes each: over 200 MB
USERS = 2_150_000          # distinct /userId values among them: over 2,000,000 partitions
ANALYSIS = ["--key", "/userId", "--weight", "/n"]
REPORT = ["--format", "json", "--container", "--ru", "60000"]


def generate(directory):
    """FILES NDJSON files; some users' items span files, a few ids repeat across files."""
    per_file = ITEMS // FILES
    for f in range(FILES):
        lines = []
        for i in range(f * per_file, (f + 1) * per_file):
            user = (i * 7919) % USERS
            item_id = i if i % 50_000 else i - per_file  # an id of the file before: a duplicate
            lines.append('{"id":"i%d","userId":"u%07d","n":%d.%02d,"type":"%s","pad":"%s"}\n'
                         % (item_id, user, i % 97, i % 100, ("order", "ticket", "review")[i % 3],
                            "x" * (20 + i % 40)))
        with open(os.path.join(directory, "export-%02d.ndjson" % f), "w") as out:
            out.writelines(lines)


def digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class DaskRecipeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        from distributed import Client, LocalCluster
        cls.tmp = tempfile.mkdtemp(prefix="pp-dask-")
        cls.export = os.path.join(cls.tmp, "export")
        os.makedirs(cls.export)
        started = time.time()
        generate(cls.export)
        cls.bytes = sum(os.path.getsize(os.path.join(cls.export, n))
                        for n in os.listdir(cls.export))
        print("\n  export: {} files, {:.1f} MB, generated in {:.1f} s".format(
            FILES, cls.bytes / 1e6, time.time() - started), file=sys.stderr)
        # One pass over the files concatenated (one thread): the report to match.
        cls.one = os.path.join(cls.tmp, "one.json")
        started = time.time()
        files = sorted(os.path.join(cls.export, n) for n in os.listdir(cls.export))
        with subprocess.Popen(["cat", *files], stdout=subprocess.PIPE) as cat:
            subprocess.run([PARTPLAY, "analyze", *ANALYSIS, *REPORT, "--quiet", "-o", cls.one,
                            "-"], stdin=cat.stdout, check=True)
        print("  one pass: {:.1f} s".format(time.time() - started), file=sys.stderr)
        cls.cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                   dashboard_address=":0")
        cls.client = Client(cls.cluster)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def run_recipe(self, work, buckets, **kwargs):
        report = os.path.join(work, "report.json")
        os.makedirs(work, exist_ok=True)
        started = time.time()
        partplay_dask.run(self.client, PARTPLAY, self.export, work, buckets, ANALYSIS, REPORT,
                          report, **kwargs)
        print("  recipe, {} buckets, {} shuffle: {:.1f} s".format(
            buckets, kwargs.get("shuffle", "files"), time.time() - started), file=sys.stderr)
        return report

    def test_the_export_is_big_enough(self):
        self.assertGreaterEqual(self.bytes, 200_000_000)
        with open(self.one, "rb") as f:
            head = f.read(4096).decode()
        count = int(head.split('"partition_count":', 1)[1].split(",", 1)[0])
        self.assertGreaterEqual(count, 2_000_000)
        self.assertIn('"duplicate_id":{"count":', head)

    def test_the_cluster_report_is_one_passs(self):
        report = self.run_recipe(os.path.join(self.tmp, "work-plain"), 8)
        self.assertEqual(digest(report), digest(self.one))

    def test_byte_ranges_of_one_file_give_the_same_report(self):
        # The export as one NDJSON file, cut into ranges of about 40 MB at line ends.
        whole = os.path.join(self.tmp, "export.ndjson")
        with open(whole, "wb") as out:
            for name in sorted(os.listdir(self.export)):
                with open(os.path.join(self.export, name), "rb") as f:
                    shutil.copyfileobj(f, out, 1 << 20)
        ranges = partplay_dask.byte_ranges(whole, 40_000_000)
        self.assertEqual(len(ranges), 7)
        self.assertEqual([r[1] for r in ranges[1:]], [r[2] for r in ranges[:-1]])
        with open(whole, "rb") as f:
            for _, start, _ in ranges[1:]:
                f.seek(start - 1)
                self.assertEqual(f.read(2), b"\n{")  # each cut just after a line's end
        work = os.path.join(self.tmp, "work-ranges")
        report = os.path.join(work, "report.json")
        partplay_dask.run(self.client, PARTPLAY, whole, work, 4, ANALYSIS, REPORT, report,
                          shard_bytes=40_000_000)
        self.assertEqual(digest(report), digest(self.one))
        os.remove(whole)

    def test_the_shuffle_through_dask_gives_the_same_report(self):
        report = self.run_recipe(os.path.join(self.tmp, "work-dask"), 8, shuffle="dask")
        self.assertEqual(digest(report), digest(self.one))
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "work-dask", "parts")))

    def test_a_worker_killed_mid_run_changes_nothing(self):
        for shuffle in ("files", "dask"):
            with self.subTest(shuffle=shuffle):
                self.kill_a_worker_mid_run(shuffle)

    def kill_a_worker_mid_run(self, shuffle):
        killed = []

        def kill_a_busy_worker(parts):
            # Once a part is done and another is running, the worker running it is killed.
            deadline = time.time() + 120
            while time.time() < deadline:
                done = sum(1 for p in parts if p.done())
                busy = [w for w, tasks in self.client.processing().items() if tasks]
                if done >= 1 and busy and done < len(parts):
                    victim = busy[0]
                    for nanny in self.cluster.workers.values():
                        if nanny.worker_address == victim:
                            nanny.process.process.kill()
                            killed.append(victim)
                            return
                time.sleep(0.05)

        # With the files shuffle the killed task is run again; with Dask's, the parts the dead
        # worker held in memory are computed again too.
        report = self.run_recipe(os.path.join(self.tmp, "work-killed-" + shuffle), 8,
                                 on_parts_submitted=kill_a_busy_worker, shuffle=shuffle)
        self.assertEqual(len(killed), 1, "a worker was killed mid-run")
        self.assertNotIn(killed[0], self.client.scheduler_info()["workers"])
        self.assertEqual(digest(report), digest(self.one))

    def test_a_bad_input_stops_with_its_located_error(self):
        bad = os.path.join(self.tmp, "bad")
        os.makedirs(bad, exist_ok=True)
        with open(os.path.join(bad, "a.ndjson"), "w") as f:
            f.write('{"id":"1","userId":"u1"}\n')
        with open(os.path.join(bad, "b.ndjson"), "w") as f:
            f.write('{"id":"2","userId":"u2"}\n{"id":"3",\n')
        with self.assertRaises(partplay_dask.PartplayError) as caught:
            partplay_dask.run(self.client, PARTPLAY, bad, os.path.join(self.tmp, "work-bad"), 2,
                              ANALYSIS, REPORT, os.path.join(self.tmp, "bad.json"))
        # One pass's error: located in the files concatenated, not in the second file alone.
        one = subprocess.run("cat {0}/a.ndjson {0}/b.ndjson | {1} analyze {2} -".format(
            bad, PARTPLAY, " ".join(ANALYSIS)), shell=True, stderr=subprocess.PIPE)
        error = one.stderr.decode().strip()
        self.assertIn("truncated_input at line 4, column 1 (byte 61, item 2)", error)
        self.assertIn(error, str(caught.exception))
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "bad.json")))


if __name__ == "__main__":
    unittest.main()
