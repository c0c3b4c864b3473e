#!/usr/bin/env python3
# Records the job-control*.txt texts: an interactive bash 5.2 (`bash --norc -i`, PS1='$ ') on a
# pseudo-terminal (python3's pty module), fed the keys below with a pause after each, so Ctrl-Z
# (\x1a) and Ctrl-C (\x03) reach it as a terminal's keys and the kernel's tty layer echoes `^Z`/`^C`.
# The transcript is what the terminal showed, carriage returns removed. Replayed through the REPL
# by src/ui/job-control.test.ts (the same key lists).
# Usage: python3 src/shell/testdata/record-job-control.py [main|marks|exit|dead|signals|pipeline|list|eof|eof-exit|eof-twice] > src/shell/testdata/job-control[-NAME].txt
import os, pty, re, select, sys, time

KEY_SETS = {
    'main': ['sleep 100\n', '\x1a', 'jobs\n', 'bg\n', 'jobs\n', 'fg\n', '\x1a', 'kill %1\n', '\n',
             'sleep 200 &\n', 'jobs\n', 'fg %1\n', '\x03', 'sleep 300\n', '\x1a', 'sleep 400 &\n', 'jobs\n',
             'kill %1 %2\n', 'jobs\n', 'exit\n'],
    # two stopped jobs: + and - among them, fg/bg by number, $? after Ctrl-C
    'marks': ['sleep 100\n', '\x1a', 'sleep 200\n', '\x1a', 'jobs\n', 'fg\n', '\x1a', 'jobs\n', 'bg %1\n', 'jobs\n',
              'bg %1\n', 'fg %2\n', '\x03', 'echo $?\n', 'jobs\n', 'kill %1\n', 'jobs\n', 'exit\n'],
    # exit with a stopped job: warned until the line before was exit or jobs
    'exit': ['sleep 100\n', '\x1a', 'exit\n', 'echo hi\n', 'exit\n', 'jobs\n', 'exit\n'],
    # a job that died keeps no mark once a newer one starts
    'dead': ['sleep 100 &\n', 'sleep 200 &\n', 'kill %2\n', 'sleep 300 &\n', 'jobs\n', 'kill %1 %3\n', 'jobs\n', 'exit\n'],
    # a stopped pipeline is one job, printed whole
    'pipeline': ['sleep 100 | cat\n', '\x1a', 'jobs\n', 'fg\n', '\x1a', 'bg\n', 'jobs\n', 'fg\n', '\x03', 'echo $?\n',
                 'sleep 100 | grep x | wc -l\n', '\x1a', 'jobs\n', 'kill %1\n', '\n', 'exit\n'],
    # a list: Ctrl-Z stops its running pipeline (the job) and the list runs on with status 148;
    # Ctrl-C ends the whole list
    'list': ['sleep 100; echo hi\n', '\x1a', 'echo $?\n', 'sleep 100 && echo hi\n', '\x1a', 'echo $?\n',
             'sleep 100 || echo hi\n', '\x1a', 'jobs\n', 'sleep 100; echo hi\n', '\x03', 'echo $?\n',
             'sleep 100; echo $?; sleep 200 | cat; echo end\n', '\x1a', '\x1a', 'jobs\n', 'exit\n'],
    # Ctrl-D (\x04) with a stopped job: as `exit`, warned until the line before was exit or jobs (or Ctrl-D)
    'eof': ['sleep 100\n', '\x1a', '\x04', 'echo hi\n', '\x04', 'jobs\n', '\x04'],
    'eof-exit': ['sleep 100\n', '\x1a', 'exit\n', '\x04'],
    'eof-twice': ['sleep 100\n', '\x1a', '\x04', '\x04'],
    # kill -STOP/-TSTP/-TTIN/-CONT on background jobs: the stop is told after the next line
    'signals': ['sleep 100 &\n', 'sleep 200 &\n', 'kill -STOP %1\n', 'jobs\n', 'kill -CONT %1\n', 'jobs\n',
                'kill -STOP %2\n', '\n', 'jobs\n', 'kill -CONT %2\n', 'jobs\n', 'kill -TSTP %1\n', 'echo hi\n',
                'echo ho\n', 'kill -CONT %1\n', 'kill -s STOP %2; kill -CONT %2\n', 'jobs\n', 'kill -TTIN %2\n',
                '\n', 'kill %1\n', '\n', 'kill -CONT %2\n', 'kill %2\n', '\n', 'exit\n'],
}
KEYS = KEY_SETS[sys.argv[1] if len(sys.argv) > 1 else 'main']

pid, fd = pty.fork()
if pid == 0:
    os.execvpe('bash', ['bash', '--norc', '--noprofile', '-i'],
               {'PS1': '$ ', 'TERM': 'dumb', 'PATH': '/usr/bin:/bin', 'HOME': '/tmp', 'LC_ALL': 'C.UTF-8'})
out = b''

def drain(seconds):
    global out
    end = time.time() + seconds
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                out += os.read(fd, 4096)
            except OSError:
                return

drain(1.0)
for k in KEYS:
    os.write(fd, k.encode())
    drain(0.6)
drain(0.5)
# the pids of `[N] PID` vary from run to run
text = out.decode('utf-8', 'replace').replace('\r', '')
print(re.sub(r'^(\[\d+\]) \d+$', r'\1 PID', text, flags=re.M), end='')
