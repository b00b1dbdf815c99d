#!/usr/bin/python3
"""Partition Playground's analysis of an export too big for one machine, on a Dask cluster.

The recipe (docs/cluster.md): the export's shards (the files of a directory, or byte ranges of
one NDJSON file cut between items) are analysed one task each by `partplay analyze
--partial-out DIR --buckets K`, which writes the part's figures and K bucket files cut by a hash
of the partition key; bucket b of every part is merged by one task (`partplay merge --bucket b`)
into a summary; a last task merges the parts' figures and the K summaries into the report
(`partplay merge --summaries`), byte for byte the report of one pass over the whole export.

Every task is a pure function of its input: a task Dask retries (a worker lost) writes the same
files again, through a temporary file renamed into place, so the report is the same. The bucket
files are the shuffle: in a work directory every worker sees (--shuffle files, the default: on
one machine any directory, on a cluster a shared file system), or as task results through Dask's
own transfers (--shuffle dask). The input and `partplay` must be at the same path on every
worker.

    /usr/bin/python3 python/partplay_dask.py --local 2 --key /userId --buckets 16 \\
        --work /tmp/pp-work --format json -o report.json export/

    /usr/bin/python3 python/partplay_dask.py --scheduler tcp://10.0.0.5:8786 ... export/
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
import uuid

# Options of `partplay analyze` that shape the analysis (recorded in every part), and those of
# the report (given to the last merge), passed through as they are.
ANALYSIS_OPTIONS = ["--key", "--discover", "--weight", "--synthetic", "--separator",
                    "--analysis-json"]
ANALYSIS_FLAGS = ["--no-id-check"]
REPORT_OPTIONS = ["--format", "--max-rows", "--container-json", "--hash-version", "--ru",
                  "--created-ru", "--shared-with", "--quota-increase", "--growth", "--grow-ru",
                  "--reads", "--writes", "--queries", "--spread", "--read-factor",
                  "--write-factor", "--query-ru", "--route"]
REPORT_FLAGS = ["--container", "--no-large-keys", "--autoscale", "--serverless",
                "--shared-database"]


class PartplayError(RuntimeError):
    """A partplay command failed: its exit status and what it said (a located error)."""


def run_partplay(argv, stdin_range=None):
    """Runs partplay; with stdin_range (path, start, end) those bytes are its standard input."""
    if stdin_range is None:
        done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    else:
        path, start, end = stdin_range
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        with open(path, "rb") as f:
            f.seek(start)
            left = end - start
            try:
                while left > 0:
                    chunk = f.read(min(left, 1 << 20))
                    if not chunk:
                        break
                    proc.stdin.write(chunk)
                    left -= len(chunk)
            except BrokenPipeError:
                pass  # partplay stopped early: its error says why
        try:
            out, err = proc.communicate()  # closes its standard input
        except BrokenPipeError:
            out, err = proc.stdout.read(), proc.stderr.read()
            proc.wait()
        done = subprocess.CompletedProcess(argv, proc.returncode, out, err)
    if done.returncode != 0:
        raise PartplayError("{} (exit {}): {}".format(
            " ".join(argv[:2]), done.returncode, done.stderr.decode("utf-8", "replace").strip()))
    return done.stdout


def byte_ranges(path, shard_bytes):
    """Cuts of one NDJSON file into ranges of about shard_bytes, each ending after a newline."""
    size = os.path.getsize(path)
    cuts = [0]
    with open(path, "rb") as f:
        while cuts[-1] + shard_bytes < size:
            f.seek(cuts[-1] + shard_bytes)
            tail = b""
            while True:
                block = f.read(1 << 16)
                if not block:
                    break
                newline = block.find(b"\n")
                if newline >= 0:
                    tail += block[:newline + 1]
                    break
                tail += block
            cut = cuts[-1] + shard_bytes + len(tail)
            if cut >= size:
                break
            cuts.append(cut)
    cuts.append(size)
    return [(path, cuts[k], cuts[k + 1]) for k in range(len(cuts) - 1)]


def shards_of(source, shard_bytes):
    """The input's shards in input order: a directory's files (sorted by name), or one file's
    byte ranges (with shard_bytes), or the one file."""
    if os.path.isdir(source):
        names = sorted(n for n in os.listdir(source)
                       if not n.startswith(".") and os.path.isfile(os.path.join(source, n)))
        if not names:
            raise PartplayError("{} holds no files".format(source))
        return [(os.path.join(source, n), None, None) for n in names]
    if shard_bytes:
        return byte_ranges(source, shard_bytes)
    return [(source, None, None)]


def analyze_part(partplay, analysis, buckets, shard, part_dir):
    """One shard analysed: its figures and buckets written into part_dir."""
    path, start, end = shard
    argv = [partplay, "analyze", *analysis, "--partial-out", part_dir, "--buckets",
            str(buckets), "--quiet"]
    figures = os.path.join(part_dir, "figures.part")
    if os.path.exists(figures):
        os.remove(figures)  # an earlier run's: whether this run wrote one must be known
    try:
        if start is None:
            run_partplay(argv + [path])
        else:
            run_partplay(argv + ["-"], stdin_range=(path, start, end))
    except PartplayError:
        # Bad input still writes the part's files: its error travels in them, and the merges
        # report it located in the whole export. Anything else (no files) stops the run here.
        if not os.path.exists(figures):
            raise
    return part_dir


def merge_bucket(partplay, bucket, part_dirs, summary, _parts):
    """Bucket `bucket` of every part merged into its summary file (after the parts: _parts)."""
    run_partplay([partplay, "merge", "--bucket", str(bucket), "--summary-out", summary,
                  "--quiet", *part_dirs])
    return summary


def merge_summaries(partplay, report, summaries_dir, part_dirs, output, _done):
    """The report: every part's figures and the K summaries (after every bucket is merged)."""
    argv = [partplay, "merge", "--summaries", summaries_dir, *report, "--quiet"]
    if output:
        argv += ["-o", output]
    return run_partplay(argv + part_dirs)


# --shuffle dask: the part's files travel as task results (Dask's transfers, spilled to disk by
# its workers), each step runs partplay in a temporary directory of its own worker, and no
# directory needs to be shared.

def _read(path):
    with open(path, "rb") as f:
        return f.read()


def analyze_part_bytes(partplay, analysis, buckets, shard):
    """One shard analysed on the worker: (its figures' bytes, [its buckets' bytes])."""
    with tempfile.TemporaryDirectory(prefix="partplay-part-") as tmp:
        part_dir = analyze_part(partplay, analysis, buckets, shard, os.path.join(tmp, "part"))
        return (_read(os.path.join(part_dir, "figures.part")),
                [_read(os.path.join(part_dir, "bucket-{:04d}.part".format(b)))
                 for b in range(buckets)])


def pick(files, bucket):
    """A part's figures (bucket None) or one bucket's bytes, where the part's result is."""
    return files[0] if bucket is None else files[1][bucket]


def _write_parts(tmp, name, contents):
    dirs = []
    for k, data in enumerate(contents):
        d = os.path.join(tmp, "{:06d}".format(k))
        os.makedirs(d)
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        dirs.append(d)
    return dirs


def merge_bucket_bytes(partplay, bucket, buckets_of_parts):
    """Bucket `bucket` of every part (bytes, in input order) merged: the summary's bytes."""
    with tempfile.TemporaryDirectory(prefix="partplay-bucket-") as tmp:
        dirs = _write_parts(tmp, "bucket-{:04d}.part".format(bucket), buckets_of_parts)
        summary = os.path.join(tmp, "bucket.sum")
        merge_bucket(partplay, bucket, dirs, summary, None)
        return _read(summary)


def merge_summaries_bytes(partplay, report, figures_of_parts, summaries):
    """The report's bytes from every part's figures and the K summaries (bytes)."""
    with tempfile.TemporaryDirectory(prefix="partplay-summary-") as tmp:
        dirs = _write_parts(os.path.join(tmp, "parts"), "figures.part", figures_of_parts)
        sums = os.path.join(tmp, "summaries")
        os.makedirs(sums)
        for b, data in enumerate(summaries):
            with open(os.path.join(sums, "bucket-{:04d}.sum".format(b)), "wb") as f:
                f.write(data)
        return merge_summaries(partplay, report, sums, dirs, None, None)


def split_options(argv):
    """partplay's options among this script's arguments: those of the analysis, those of the
    report, and the script's own arguments."""
    analysis, report, own = [], [], []
    k = 0
    while k < len(argv):
        arg = argv[k]
        name = arg.split("=", 1)[0]
        takes_value = name in ANALYSIS_OPTIONS or name in REPORT_OPTIONS
        if not takes_value and name not in ANALYSIS_FLAGS and name not in REPORT_FLAGS:
            own.append(arg)
            k += 1
            continue
        target = analysis if name in ANALYSIS_OPTIONS or name in ANALYSIS_FLAGS else report
        target.append(arg)
        if takes_value and "=" not in arg:
            if k + 1 >= len(argv):
                raise PartplayError("{} takes a value".format(arg))
            target.append(argv[k + 1])
            k += 1
        k += 1
    if not any(a.split("=", 1)[0] in ("--key", "--analysis-json") for a in analysis):
        raise PartplayError("--key is required")
    return analysis, report, own


def run(client, partplay, source, work, buckets, analysis, report, output, shard_bytes=0,
        show_progress=False, on_parts_submitted=None, shuffle="files"):
    """The whole recipe on `client`'s cluster; answers the report (bytes) when output is None.
    shuffle "files": the parts and summaries are files in `work`, a directory every worker
    sees; "dask": they travel as task results and `work` is not used."""
    from distributed import progress, wait

    client.upload_file(os.path.abspath(__file__))  # these functions, on every worker
    shards = shards_of(source, shard_bytes)
    # Keys name the work and this run (a key of an earlier run would be that run's result).
    run_id = uuid.uuid4().hex[:12]
    if shuffle == "dask":
        parts = [client.submit(analyze_part_bytes, partplay, analysis, buckets, shard,
                               key="partplay-analyze-{}-{}".format(run_id, k), pure=False)
                 for k, shard in enumerate(shards)]
        if on_parts_submitted:
            on_parts_submitted(parts)
        # Each part's result cut where it lies, so a bucket's merge fetches only its own bytes.
        cut = [[client.submit(pick, p, b, key="partplay-pick-{}-{}-{}".format(run_id, k, b))
                for b in [None, *range(buckets)]] for k, p in enumerate(parts)]
        del parts  # each whole part is freed once it is cut (a lost piece is computed again)
        merged = [client.submit(merge_bucket_bytes, partplay, b, [c[1 + b] for c in cut],
                                key="partplay-merge-bucket-{}-{}".format(run_id, b), pure=False)
                  for b in range(buckets)]
        final = client.submit(merge_summaries_bytes, partplay, report, [c[0] for c in cut],
                              merged, key="partplay-merge-summaries-" + run_id, pure=False)
        if show_progress:
            progress([p for c in cut for p in c] + merged + [final])
            print(file=sys.stderr)
        out = final.result()
        if output:
            with open(output + ".tmp", "wb") as f:
                f.write(out)
            os.replace(output + ".tmp", output)
        return out
    parts_dir = os.path.join(work, "parts")
    summaries_dir = os.path.join(work, "summaries")
    os.makedirs(parts_dir, exist_ok=True)
    os.makedirs(summaries_dir, exist_ok=True)
    for stale in os.listdir(summaries_dir):  # a summary of an earlier run is not this run's
        if stale.endswith(".sum"):
            os.remove(os.path.join(summaries_dir, stale))
    part_dirs = [os.path.join(parts_dir, "{:06d}".format(k)) for k in range(len(shards))]
    parts = [client.submit(analyze_part, partplay, analysis, buckets, shard, part_dir,
                           key="partplay-analyze-{}-{}".format(run_id, k), pure=False)
             for k, (shard, part_dir) in enumerate(zip(shards, part_dirs))]
    if on_parts_submitted:
        on_parts_submitted(parts)
    # A bucket's merge takes every part's future: it runs when their files are all written.
    merged = [client.submit(merge_bucket, partplay, b, part_dirs,
                            os.path.join(summaries_dir, "bucket-{:04d}.sum".format(b)), parts,
                            key="partplay-merge-bucket-{}-{}".format(run_id, b), pure=False)
              for b in range(buckets)]
    final = client.submit(merge_summaries, partplay, report, summaries_dir, part_dirs, output,
                          merged, key="partplay-merge-summaries-" + run_id, pure=False)
    if show_progress:
        progress(parts + merged + [final])
        print(file=sys.stderr)
    wait([final])
    return final.result()


def main(argv=None):
    parser = argparse.ArgumentParser(
        allow_abbrev=False,
        description=__doc__.split("\n\n")[0],
        usage="%(prog)s (--local N | --scheduler ADDRESS) --key PATH [partplay options] "
              "[--buckets K] [--work DIR] [--shard-bytes N] [-o REPORT] INPUT")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--local", type=int, metavar="N",
                       help="start a LocalCluster of N worker processes (one thread each)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="a running Dask scheduler (tcp://host:8786)")
    parser.add_argument("--partplay", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build", "native", "partplay"),
                        help="the partplay CLI, at this path on every worker")
    parser.add_argument("--buckets", type=int, default=16,
                        help="buckets each part is cut into (1 to 4096; default 16)")
    parser.add_argument("--work", default="partplay-work",
                        help="with --shuffle files: a directory every worker sees, where the "
                             "parts and summaries go")
    parser.add_argument("--shuffle", choices=["files", "dask"], default="files",
                        help="files (default): the bucket files in --work; dask: they travel "
                             "as task results through Dask's transfers (no shared directory)")
    parser.add_argument("--shard-bytes", type=int, default=0, metavar="N",
                        help="cut one NDJSON INPUT file into byte ranges of about N bytes")
    parser.add_argument("-o", "--output", help="the report's file (default: standard output)")
    parser.add_argument("input", help="a directory of NDJSON files, or one NDJSON file")
    try:
        analysis, report, own = split_options(sys.argv[1:] if argv is None else argv)
        args = parser.parse_args(own)
        if not 1 <= args.buckets <= 4096:
            raise PartplayError("--buckets takes 1 to 4096")
        from distributed import Client, LocalCluster
        if args.local:
            cluster = LocalCluster(n_workers=args.local, threads_per_worker=1, processes=True,
                                   dashboard_address=":0")
            client = Client(cluster)
        else:
            cluster = None
            client = Client(args.scheduler)
        print("partplay-dask: dashboard {}".format(client.dashboard_link), file=sys.stderr)
        started = time.time()
        out = run(client, os.path.abspath(args.partplay), args.input, os.path.abspath(args.work),
                  args.buckets, analysis, report, args.output, args.shard_bytes,
                  show_progress=sys.stderr.isatty(), shuffle=args.shuffle)
        if not args.output:
            sys.stdout.buffer.write(out)
        print("partplay-dask: done in {:.1f} s".format(time.time() - started), file=sys.stderr)
        client.close()
        if cluster:
            cluster.close()
        return 0
    except PartplayError as e:
        print("partplay-dask: {}".format(e), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
