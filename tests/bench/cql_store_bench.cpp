// `cql_store_bench CSV QUERIES [--profile]`: the Cassandra console's store measured the way
// tests/bench/cql-store.mjs compares it with Debian's sqlite3. Through the engine's public API
// only (cassandra/session.h), as `partplay cql` runs a script: a Session, the CREATE KEYSPACE /
// CREATE TABLE of bench.events, then
//   COPY bench.events (sensor, day, ts, reading, note) FROM 'CSV' WITH HEADER = true
// timed around the statement (reading the file included, as cqlsh's COPY reads it), then the
// queries of the QUERIES file, one a line, each run as its own Execute (parsed and planned each
// time, as sqlite3's shell prepares each statement):
//   P <sensor> <day>   SELECT * FROM bench.events WHERE sensor = <sensor> AND day = '<day>'
//   R <token>          SELECT * FROM bench.events WHERE token(sensor, day) > <token> LIMIT 1000
//   S <sensor> <day>   the point query's rows printed (ts, reading, note), for the agreement check
// It prints one JSON line on stdout: the load's wall and CPU seconds, the rows, the memory (the
// heap in use before and after the load by glibc's mallinfo2, which counts every chunk with its
// header; VmRSS before and after; VmHWM), the store's own accounting of its value bytes, the
// allocations made during the load (operator new counted), the load's system time and minor page
// faults (getrusage: the kernel's share, mostly the store's fresh pages), and per query kind the wall and CPU
// milliseconds of each query (median, min, max) and the rows returned.
//
// --profile adds where the load's time goes, each phase in its own pass over the same bytes in
// this process (after the measured load): reading the file, splitting it into CSV records only
// (CsvReader), records plus the values read from text (ValueFromString, the conversion COPY
// makes), and the whole load into a second table through CsvRowLoader (what COPY runs); and the
// row representation's sizes (sizeof of store.h's types and the heap chunks a row of this table
// takes). The numbers in between are differences of those passes.
#include <malloc.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "partplay/cassandra/csv.h"
#include "partplay/cassandra/csv_load.h"
#include "partplay/cassandra/literal.h"
#include "partplay/cassandra/session.h"
#include "partplay/cassandra/store.h"
#include "partplay/cassandra/value.h"

// --- allocations counted: every operator new of the process (the engine's included) ------------
namespace {
std::atomic<uint64_t> g_news{0};
std::atomic<uint64_t> g_new_bytes{0};
}  // namespace

void* operator new(size_t n) {
  g_news.fetch_add(1, std::memory_order_relaxed);
  g_new_bytes.fetch_add(n, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  std::fprintf(stderr, "cql_store_bench: out of memory\n");
  std::abort();
}
void* operator new[](size_t n) { return operator new(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept {
  g_news.fetch_add(1, std::memory_order_relaxed);
  g_new_bytes.fetch_add(n, std::memory_order_relaxed);
  return std::malloc(n ? n : 1);
}
void* operator new[](size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

namespace {

using namespace partplay::cql;

double WallSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
double CpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

// VmRSS or VmHWM of this process, in KiB.
int64_t StatusKb(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  size_t n = std::strlen(field);
  while (std::getline(in, line)) {
    if (line.compare(0, n, field) == 0 && line.size() > n && line[n] == ':') {
      return std::strtoll(line.c_str() + n + 1, nullptr, 10);
    }
  }
  return -1;
}

struct Usage {
  double sys_seconds = 0;
  int64_t minor_faults = 0;
};
Usage UsageNow() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return {static_cast<double>(u.ru_stime.tv_sec) + static_cast<double>(u.ru_stime.tv_usec) / 1e6,
          static_cast<int64_t>(u.ru_minflt)};
}

// Bytes of the heap in use: small chunks (uordblks) and mmapped ones (hblkhd), headers included.
int64_t HeapInUse() {
  struct mallinfo2 m = mallinfo2();
  return static_cast<int64_t>(m.uordblks + m.hblkhd);
}

std::string ReadWhole(const std::string& path, bool* ok) {
  std::string data;
  FILE* f = std::fopen(path.c_str(), "rb");
  *ok = f != nullptr;
  if (!f) return data;
  std::fseek(f, 0, SEEK_END);
  long size = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  data.resize(static_cast<size_t>(size));
  *ok = std::fread(data.data(), 1, data.size(), f) == data.size();
  std::fclose(f);
  return data;
}

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

struct Timing {
  std::vector<double> wall_ms, cpu_ms;
  int64_t rows = 0, queries = 0, min_rows = INT64_MAX, max_rows = 0;
  void Add(double wall, double cpu, int64_t n) {
    wall_ms.push_back(wall);
    cpu_ms.push_back(cpu);
    rows += n;
    ++queries;
    min_rows = std::min(min_rows, n);
    max_rows = std::max(max_rows, n);
  }
};

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

std::string TimingJson(const Timing& t) {
  auto stat = [](const std::vector<double>& v, const char* name) {
    if (v.empty()) return std::string("\"") + name + "_median\":null";
    char buf[256];
    std::snprintf(buf, sizeof buf, "\"%s_median\":%.6f,\"%s_min\":%.6f,\"%s_max\":%.6f,\"%s_mean\":%.6f",
                  name, Median(v), name, *std::min_element(v.begin(), v.end()), name,
                  *std::max_element(v.begin(), v.end()), name,
                  [&] {
                    double s = 0;
                    for (double x : v) s += x;
                    return s / static_cast<double>(v.size());
                  }());
    return std::string(buf);
  };
  char buf[128];
  std::snprintf(buf, sizeof buf, "\"queries\":%" PRId64 ",\"rows\":%" PRId64
                ",\"min_rows\":%" PRId64 ",\"max_rows\":%" PRId64,
                t.queries, t.rows, t.queries ? t.min_rows : 0, t.max_rows);
  return "{" + std::string(buf) + "," + stat(t.wall_ms, "wall_ms") + "," + stat(t.cpu_ms, "cpu_ms") +
         "}";
}

// glibc's chunk for a request of n bytes on x86-64: n + 8 rounded up to 16, at least 32.
size_t Chunk(size_t n) { return std::max<size_t>(32, (n + 8 + 15) & ~size_t{15}); }

const char kSchema[] =
    "CREATE KEYSPACE bench WITH replication = {'class': 'SimpleStrategy', "
    "'replication_factor': 1};"
    "CREATE TABLE bench.events (sensor int, day text, ts int, reading double, note text, "
    "PRIMARY KEY ((sensor, day), ts));";

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: cql_store_bench CSV QUERIES [--profile]\n");
    return 2;
  }
  const std::string csv_path = argv[1];
  const bool profile = argc > 3 && std::strcmp(argv[3], "--profile") == 0;
  std::ifstream qin(argv[2]);
  if (!qin) {
    std::fprintf(stderr, "cql_store_bench: cannot read %s\n", argv[2]);
    return 2;
  }
  std::vector<std::string> queries;
  for (std::string line; std::getline(qin, line);) {
    if (!line.empty()) queries.push_back(line);
  }

  double read_seconds = 0;
  SessionOptions options;
  options.now_millis = 1700000000000;
  options.read_file = [&](const std::string& file) -> partplay::StatusOr<std::string> {
    double t0 = WallSeconds();
    bool ok = false;
    std::string data = ReadWhole(file, &ok);
    read_seconds += WallSeconds() - t0;
    if (!ok) return partplay::Status(partplay::ErrorCode::kIo, "cannot read " + file);
    return data;
  };
  Session session(options);
  for (const StatementResult& r : session.Execute(kSchema)) {
    if (r.kind == StatementResult::Kind::kError) {
      std::fprintf(stderr, "cql_store_bench: %s\n", std::string(r.status.message()).c_str());
      return 1;
    }
  }

  const int64_t rss_before = StatusKb("VmRSS"), heap_before = HeapInUse();
  const uint64_t news_before = g_news.load(), new_bytes_before = g_new_bytes.load();
  const std::string copy = "COPY bench.events (sensor, day, ts, reading, note) FROM '" + csv_path +
                           "' WITH HEADER = true";
  const Usage u0 = UsageNow();
  double w0 = WallSeconds(), c0 = CpuSeconds();
  std::vector<StatementResult> loaded = session.Execute(copy);
  double load_wall = WallSeconds() - w0, load_cpu = CpuSeconds() - c0;
  const Usage u1 = UsageNow();
  const uint64_t news = g_news.load() - news_before, new_bytes = g_new_bytes.load() - new_bytes_before;
  if (loaded.size() != 1 || loaded[0].kind == StatementResult::Kind::kError) {
    std::fprintf(stderr, "cql_store_bench: COPY failed: %s\n",
                 loaded.empty() ? "no result" : std::string(loaded[0].status.message()).c_str());
    return 1;
  }
  const int64_t rss_after = StatusKb("VmRSS"), heap_after = HeapInUse();
  loaded.clear();

  partplay::StatusOr<Table*> found = session.FindTable("bench.events");
  if (!found.ok()) return 1;
  const Table& table = *found.value();
  // The rows' own values, each row's partition key included (the CSV row carries it), and the
  // store's accounting of what it keeps (the key once per partition).
  int64_t value_bytes = 0, store_key_bytes = 0, store_row_bytes = 0;
  for (const auto& [key, p] : table.partitions()) {
    value_bytes += p.key_bytes * static_cast<int64_t>(p.rows.size()) + p.row_bytes;
    store_key_bytes += p.key_bytes;
    store_row_bytes += p.row_bytes;
  }

  Timing point, range;
  std::string samples;
  for (const std::string& q : queries) {
    std::istringstream in(q);
    std::string kind;
    in >> kind;
    std::string statement;
    if (kind == "P" || kind == "S") {
      std::string sensor, day;
      in >> sensor >> day;
      statement = kind == "P" ? "SELECT * FROM bench.events WHERE sensor = " + sensor +
                                    " AND day = '" + day + "'"
                              : "SELECT ts, reading, note FROM bench.events WHERE sensor = " +
                                    sensor + " AND day = '" + day + "'";
    } else if (kind == "R") {
      std::string token;
      in >> token;
      statement = "SELECT * FROM bench.events WHERE token(sensor, day) > " + token + " LIMIT 1000";
    } else {
      std::fprintf(stderr, "cql_store_bench: bad query line: %s\n", q.c_str());
      return 2;
    }
    double qw = WallSeconds(), qc = CpuSeconds();
    std::vector<StatementResult> r = session.Execute(statement);
    double wall_ms = (WallSeconds() - qw) * 1e3, cpu_ms = (CpuSeconds() - qc) * 1e3;
    if (r.size() != 1 || r[0].kind != StatementResult::Kind::kRows) {
      std::fprintf(stderr, "cql_store_bench: %s failed: %s\n", statement.c_str(),
                   r.empty() ? "no result" : std::string(r[0].status.message()).c_str());
      return 1;
    }
    const std::vector<std::vector<Value>>& rows = r[0].rows.rows;
    if (kind == "P") point.Add(wall_ms, cpu_ms, static_cast<int64_t>(rows.size()));
    if (kind == "R") range.Add(wall_ms, cpu_ms, static_cast<int64_t>(rows.size()));
    if (kind == "S") {
      std::string sensor, day;
      std::istringstream again(q);
      again >> kind >> sensor >> day;
      std::string list;
      for (const std::vector<Value>& row : rows) {
        char num[64];
        std::snprintf(num, sizeof num, "[%" PRId64 ",%.17g,", DecodeSigned(*row[0]),
                      DecodeDouble(*row[1]));
        list += (list.empty() ? "" : ",") + std::string(num) +
                (row[2] ? JsonString(*row[2]) : std::string("null")) + "]";
      }
      samples += (samples.empty() ? "" : ",") + std::string("{\"sensor\":") + sensor +
                 ",\"day\":" + JsonString(day) + ",\"rows\":[" + list + "]}";
    }
  }

  std::string profile_json;
  if (profile) {
    // Each phase over the same bytes again, after the measured load.
    double t0 = WallSeconds();
    bool ok = false;
    std::string data = ReadWhole(csv_path, &ok);
    double read_s = WallSeconds() - t0;
    CsvOptions csv;
    std::vector<CsvField> fields;
    int64_t records = 0;
    t0 = WallSeconds();
    {
      CsvReader reader(data, csv);
      while (true) {
        partplay::StatusOr<bool> more = reader.Next(fields);
        if (!more.ok() || !more.value()) break;
        ++records;
      }
    }
    double split_s = WallSeconds() - t0;
    const TableSchema& schema = table.schema();
    std::vector<const ColumnSpec*> cols;
    for (const char* name : {"sensor", "day", "ts", "reading", "note"}) cols.push_back(schema.Find(name));
    int64_t converted = 0;
    t0 = WallSeconds();
    {
      CsvReader reader(data, csv);
      bool header = true;
      while (true) {
        partplay::StatusOr<bool> more = reader.Next(fields);
        if (!more.ok() || !more.value()) break;
        if (header) {
          header = false;
          continue;
        }
        for (size_t i = 0; i < fields.size() && i < cols.size(); ++i) {
          partplay::StatusOr<Bytes> b = ValueFromString(cols[i]->type, fields[i].text);
          if (b.ok()) converted += static_cast<int64_t>(b.value().size());
        }
      }
    }
    double convert_s = WallSeconds() - t0;
    Table second(schema);
    ValueGenerator gen(1700000000000);
    CsvLoadOptions load_options;
    load_options.header = true;
    std::vector<int> columns =
        ResolveCsvColumns(schema, {"sensor", "day", "ts", "reading", "note"}, {}).value();
    const int64_t heap0 = HeapInUse();
    const uint64_t n0 = g_news.load();
    t0 = WallSeconds();
    {
      CsvReader reader(data, csv);
      CsvRowLoader loader(load_options, columns);
      (void)loader.LoadAvailable(reader, second, gen);
    }
    double load_s = WallSeconds() - t0;
    const int64_t second_heap = HeapInUse() - heap0;
    const uint64_t second_news = g_news.load() - n0;
    const double rows_d = static_cast<double>(std::max<int64_t>(1, second.row_count()));
    // One row of this table: its map node (three pointers, colour, then the key and the Row; the
    // key's one clustering value inline, clustering.h: no block for it, clustering_heap_chunk 0),
    // and the cells' one block (cells.h, narrow: a count and an end a cell, 2 bytes each, then
    // the reading's 8 bytes and, say, a 21-byte note).
    using RowMap = std::map<Clustering, Row, ClusteringLess>;
    const size_t node = 32 + sizeof(RowMap::value_type);
    char buf[2048];
    std::snprintf(
        buf, sizeof buf,
        ",\"profile\":{\"read_file_s\":%.4f,\"csv_split_s\":%.4f,\"csv_split_and_convert_s\":%.4f,"
        "\"load_via_CsvRowLoader_s\":%.4f,\"records\":%" PRId64 ",\"converted_bytes\":%" PRId64
        ",\"second_table_heap_bytes\":%" PRId64 ",\"second_table_rows\":%" PRId64
        ",\"second_table_heap_per_row\":%.1f,\"second_table_news_per_row\":%.2f,"
        "\"layout\":{\"sizeof_Bytes\":%zu,\"sizeof_Value\":%zu,\"sizeof_CellTime\":%zu,"
        "\"sizeof_Row\":%zu,\"sizeof_Clustering\":%zu,\"sizeof_Partition\":%zu,"
        "\"row_map_node_bytes\":%zu,\"row_map_node_chunk\":%zu,\"clustering_heap_chunk\":%zu,"
        "\"cells_heap_chunk_note_21_bytes\":%zu}}",
        read_s, split_s, convert_s, load_s, records, converted, second_heap, second.row_count(),
        static_cast<double>(second_heap) / rows_d, static_cast<double>(second_news) / rows_d,
        sizeof(Bytes), sizeof(Value), sizeof(CellTime), sizeof(Row), sizeof(Clustering),
        sizeof(Partition), node, Chunk(node), size_t{0}, Chunk(2 * 3 + 8 + 21));
    profile_json = buf;
  }

  char head[2048];
  std::snprintf(
      head, sizeof head,
      "{\"rows\":%" PRId64 ",\"partitions\":%zu,\"load_seconds\":%.6f,\"load_cpu_seconds\":%.6f,"
      "\"read_file_seconds\":%.6f,\"heap_before\":%" PRId64 ",\"heap_after\":%" PRId64
      ",\"store_heap_bytes\":%" PRId64 ",\"rss_before_kb\":%" PRId64 ",\"rss_after_kb\":%" PRId64
      ",\"peak_rss_kb\":%" PRId64 ",\"value_bytes\":%" PRId64 ",\"store_key_bytes\":%" PRId64
      ",\"store_row_bytes\":%" PRId64 ",\"load_allocations\":%" PRIu64
      ",\"load_allocated_bytes\":%" PRIu64 ",\"load_sys_seconds\":%.6f,\"load_minor_faults\":%" PRId64,
      table.row_count(), table.partitions().size(), load_wall, load_cpu, read_seconds, heap_before,
      heap_after, heap_after - heap_before, rss_before, rss_after, StatusKb("VmHWM"), value_bytes,
      store_key_bytes, store_row_bytes, news, new_bytes, u1.sys_seconds - u0.sys_seconds,
      u1.minor_faults - u0.minor_faults);
  std::printf("%s,\"point\":%s,\"range\":%s,\"samples\":[%s]%s}\n", head,
              TimingJson(point).c_str(), TimingJson(range).c_str(), samples.c_str(),
              profile_json.c_str());
  return 0;
}
