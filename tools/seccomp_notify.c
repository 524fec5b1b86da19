// schedlab-seccomp-notify: the seccomp user-notification ping-pong of the
// WF_CURRENT_CPU series (Andrei Vagin, Linux 6.6), measured the way its
// `perf bench sched seccomp-notify` does: a child makes a syscall that a
// seccomp filter turns into a user notification; the supervisor (the parent)
// receives it and answers; nanoseconds per syscall over LOOPS round trips.
//
//   schedlab-seccomp-notify [--mode basic|sync] [--loops N]
//
// `sync` sets SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP on the listener
// (SECCOMP_IOCTL_NOTIF_SET_FLAGS): the kernel then wakes the other side on
// the current CPU (WF_CURRENT_CPU), a synchronous hand-off. A kernel without
// the flag rejects the ioctl with EINVAL; that is reported as
//   seccomp-notify: mode sync: unsupported: kernel lacks SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
// with exit status 0, so that the result is "not available", never a number.
//
// Output on success (one line, parsed by workloads/seccomp_notify.cc):
//   seccomp-notify: mode basic: 20000 syscalls in 0.170 s: 8489 nsec/syscall
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

// Linux 6.6 uapi; Debian 12's headers (6.1) do not have them.
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

// The notified syscall's answer: the child checks it, so a round trip that
// did not go through the supervisor is an error, not a fast sample.
#define ANSWER 4242

static void die(const char* what) {
  fprintf(stderr, "seccomp-notify: %s: %s\n", what, strerror(errno));
  exit(1);
}

// A filter that notifies on getppid (which neither side calls otherwise) and
// allows everything else; returns the listener.
static int install_filter(void) {
  struct sock_filter code[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_getppid, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = {.len = sizeof code / sizeof code[0], .filter = code};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) die("prctl(PR_SET_NO_NEW_PRIVS)");
  const long fd = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
                          &prog);
  if (fd < 0) die("seccomp(SECCOMP_SET_MODE_FILTER, NEW_LISTENER)");
  return (int)fd;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void usage(void) {
  fprintf(stderr, "usage: schedlab-seccomp-notify [--mode basic|sync] [--loops N]\n");
  exit(2);
}

int main(int argc, char** argv) {
  const char* mode = "basic";
  unsigned long loops = 20000;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--mode") == 0 && i + 1 < argc) {
      mode = argv[++i];
    } else if (strcmp(argv[i], "--loops") == 0 && i + 1 < argc) {
      char* end = NULL;
      errno = 0;
      loops = strtoul(argv[++i], &end, 10);
      if (errno || !end || *end || loops == 0 || loops > 100000000UL) usage();
    } else {
      usage();
    }
  }
  const int sync_mode = strcmp(mode, "sync") == 0;
  if (!sync_mode && strcmp(mode, "basic") != 0) usage();

  // The parent is filtered too, and never calls getppid.
  const int listener = install_filter();
  if (sync_mode &&
      ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) != 0) {
    if (errno == EINVAL) {
      printf("seccomp-notify: mode sync: unsupported: kernel lacks "
             "SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP\n");
      return 0;
    }
    die("ioctl(SECCOMP_IOCTL_NOTIF_SET_FLAGS)");
  }

  const double start = now_s();
  const pid_t child = fork();
  if (child < 0) die("fork");
  if (child == 0) {
    close(listener);
    for (unsigned long i = 0; i < loops; ++i)
      if (syscall(__NR_getppid) != ANSWER) _exit(3);
    _exit(0);
  }
  struct seccomp_notif req;
  struct seccomp_notif_resp resp;
  for (unsigned long i = 0; i < loops; ++i) {
    memset(&req, 0, sizeof req);
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0) die("ioctl(SECCOMP_IOCTL_NOTIF_RECV)");
    memset(&resp, 0, sizeof resp);
    resp.id = req.id;
    resp.val = ANSWER;
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp) != 0) die("ioctl(SECCOMP_IOCTL_NOTIF_SEND)");
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child) die("waitpid");
  const double seconds = now_s() - start;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "seccomp-notify: the child failed (%s %d): a syscall did not get the answer\n",
            WIFEXITED(status) ? "exit" : "signal",
            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    return 1;
  }
  printf("seccomp-notify: mode %s: %lu syscalls in %.3f s: %.0f nsec/syscall\n", mode, loops,
         seconds, seconds * 1e9 / (double)loops);
  return 0;
}
