// `exec_timer CMD [ARG...]`: runs CMD as a child process and times it from just before its
// spawn to its exit (wait4), the way hyperfine or GNU time do, but with nanosecond resolution
// (GNU time prints hundredths). `make bench` times the native CLI through it: node's own spawn
// of a process costs node 4-5 ms here (more the more memory node holds), which is node's
// time, not the CLI's. The child's stdin, stdout and stderr are this process's; once
// the child has ended, one line goes to stderr:
//   exec_timer: {"seconds":0.161234567,"max_rss_kb":36480,"status":0}
// `status` is the exit status (128 + N after signal N); exec_timer exits with it.
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

extern char** environ;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: exec_timer CMD [ARG...]\n");
    return 2;
  }
  timespec start{}, end{};
  clock_gettime(CLOCK_MONOTONIC, &start);
  pid_t pid = 0;
  int spawned = posix_spawnp(&pid, argv[1], nullptr, nullptr, argv + 1, environ);
  if (spawned != 0) {
    std::fprintf(stderr, "exec_timer: cannot run %s: %s\n", argv[1], std::strerror(spawned));
    return 127;
  }
  int wstatus = 0;
  rusage usage{};
  pid_t waited;
  do {
    waited = wait4(pid, &wstatus, 0, &usage);
  } while (waited < 0 && errno == EINTR);
  clock_gettime(CLOCK_MONOTONIC, &end);
  if (waited < 0) {
    std::fprintf(stderr, "exec_timer: wait4: %s\n", std::strerror(errno));
    return 127;
  }
  int status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
  double seconds = static_cast<double>(end.tv_sec - start.tv_sec) +
                   static_cast<double>(end.tv_nsec - start.tv_nsec) / 1e9;
  std::fprintf(stderr, "exec_timer: {\"seconds\":%.9f,\"max_rss_kb\":%ld,\"status\":%d}\n", seconds,
               usage.ru_maxrss, status);
  return status;
}
