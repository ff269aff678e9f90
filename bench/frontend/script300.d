/*
 * script300.d: a 300-line script for frontend_bench: scheduler latency and placement, written
 * with most of D (pragmas, declarations, translators, thread-locals, aggregations, printa).
 */
#pragma D option quiet
#pragma D option bufsize=4m
#pragma D option aggsize=1m
#pragma D option switchrate=10hz

int maxlen;
int spec[int];
inline int SLOW_NS = 1000000;

dtrace:::BEGIN
{
  start = timestamp;
  printf("tracing... hit Ctrl-C to end\n");
}

sched:::enqueue
/args[1]->pr_pid != 0 && args[2]->cpu_id == 0/
{
  queued_0[args[0]->pr_lwpid, args[2]->cpu_id] = timestamp;
  this->len = ++qlen_0[this->cpu = args[2]->cpu_id];
  @qlen_0[this->cpu] = lquantize(this->len, 0, 64, 2);
}

sched:::dequeue
/this->start = queued_0[args[0]->pr_lwpid, args[2]->cpu_id]/
{
  this->wait = timestamp - this->start;
  @wait_0[stringof(args[1]->pr_fname)] = quantize(this->wait);
  @slow_0[args[1]->pr_pid, stringof(args[1]->pr_fname)] = count();
  queued_0[args[0]->pr_lwpid, args[2]->cpu_id] = 0;
  qlen_0[args[2]->cpu_id] = qlen_0[args[2]->cpu_id] > 0 ? qlen_0[args[2]->cpu_id] - 1 : 0;
}

sched:::enqueue
/args[1]->pr_pid != 0 && args[2]->cpu_id == 1/
{
  queued_1[args[0]->pr_lwpid, args[2]->cpu_id] = timestamp;
  this->len = ++qlen_1[this->cpu = args[2]->cpu_id];
  @qlen_1[this->cpu] = lquantize(this->len, 0, 64, 2);
}

sched:::dequeue
/this->start = queued_1[args[0]->pr_lwpid, args[2]->cpu_id]/
{
  this->wait = timestamp - this->start;
  @wait_1[stringof(args[1]->pr_fname)] = quantize(this->wait);
  @slow_1[args[1]->pr_pid, stringof(args[1]->pr_fname)] = count();
  queued_1[args[0]->pr_lwpid, args[2]->cpu_id] = 0;
  qlen_1[args[2]->cpu_id] = qlen_1[args[2]->cpu_id] > 0 ? qlen_1[args[2]->cpu_id] - 1 : 0;
}

sched:::enqueue
/args[1]->pr_pid != 0 && args[2]->cpu_id == 2/
{
  queued_2[args[0]->pr_lwpid, args[2]->cpu_id] = timestamp;
  this->len = ++qlen_2[this->cpu = args[2]->cpu_id];
  @qlen_2[this->cpu] = lquantize(this->len, 0, 64, 2);
}

sched:::dequeue
/this->start = queued_2[args[0]->pr_lwpid, args[2]->cpu_id]/
{
  this->wait = timestamp - this->start;
  @wait_2[stringof(args[1]->pr_fname)] = quantize(this->wait);
  @slow_2[args[1]->pr_pid, stringof(args[1]->pr_fname)] = count();
  queued_2[args[0]->pr_lwpid, args[2]->cpu_id] = 0;
  qlen_2[args[2]->cpu_id] = qlen_2[args[2]->cpu_id] > 0 ? qlen_2[args[2]->cpu_id] - 1 : 0;
}

sched:::enqueue
/args[1]->pr_pid != 0 && args[2]->cpu_id == 3/
{
  queued_3[args[0]->pr_lwpid, args[2]->cpu_id] = timestamp;
  this->len = ++qlen_3[this->cpu = args[2]->cpu_id];
  @qlen_3[this->cpu] = lquantize(this->len, 0, 64, 2);
}

sched:::dequeue
/this->start = queued_3[args[0]->pr_lwpid, args[2]->cpu_id]/
{
  this->wait = timestamp - this->start;
  @wait_3[stringof(args[1]->pr_fname)] = quantize(this->wait);
  @slow_3[args[1]->pr_pid, stringof(args[1]->pr_fname)] = count();
  queued_3[args[0]->pr_lwpid, args[2]->cpu_id] = 0;
  qlen_3[args[2]->cpu_id] = qlen_3[args[2]->cpu_id] > 0 ? qlen_3[args[2]->cpu_id] - 1 : 0;
}

sched:::enqueue
/args[1]->pr_pid != 0 && args[2]->cpu_id == 0/
{
  queued_4[args[0]->pr_lwpid, args[2]->cpu_id] = timestamp;
  this->len = ++qlen_4[this->cpu = args[2]->cpu_id];
  @qlen_4[this->cpu] = lquantize(this->len, 0, 64, 2);
}

sched:::dequeue
/this->start = queued_4[args[0]->pr_lwpid, args[2]->cpu_id]/
{
  this->wait = timestamp - this->start;
  @wait_4[stringof(args[1]->pr_fname)] = quantize(this->wait);
  @slow_4[args[1]->pr_pid, stringof(args[1]->pr_fname)] = count();
  queued_4[args[0]->pr_lwpid, args[2]->cpu_id] = 0;
  qlen_4[args[2]->cpu_id] = qlen_4[args[2]->cpu_id] > 0 ? qlen_4[args[2]->cpu_id] - 1 : 0;
}

sched:::enqueue
/args[1]->pr_pid != 0 && args[2]->cpu_id == 1/
{
  queued_5[args[0]->pr_lwpid, args[2]->cpu_id] = timestamp;
  this->len = ++qlen_5[this->cpu = args[2]->cpu_id];
  @qlen_5[this->cpu] = lquantize(this->len, 0, 64, 2);
}

sched:::dequeue
/this->start = queued_5[args[0]->pr_lwpid, args[2]->cpu_id]/
{
  this->wait = timestamp - this->start;
  @wait_5[stringof(args[1]->pr_fname)] = quantize(this->wait);
  @slow_5[args[1]->pr_pid, stringof(args[1]->pr_fname)] = count();
  queued_5[args[0]->pr_lwpid, args[2]->cpu_id] = 0;
  qlen_5[args[2]->cpu_id] = qlen_5[args[2]->cpu_id] > 0 ? qlen_5[args[2]->cpu_id] - 1 : 0;
}

sched:::enqueue
/args[1]->pr_pid != 0 && args[2]->cpu_id == 2/
{
  queued_6[args[0]->pr_lwpid, args[2]->cpu_id] = timestamp;
  this->len = ++qlen_6[this->cpu = args[2]->cpu_id];
  @qlen_6[this->cpu] = lquantize(this->len, 0, 64, 2);
}

sched:::dequeue
/this->start = queued_6[args[0]->pr_lwpid, args[2]->cpu_id]/
{
  this->wait = timestamp - this->start;
  @wait_6[stringof(args[1]->pr_fname)] = quantize(this->wait);
  @slow_6[args[1]->pr_pid, stringof(args[1]->pr_fname)] = count();
  queued_6[args[0]->pr_lwpid, args[2]->cpu_id] = 0;
  qlen_6[args[2]->cpu_id] = qlen_6[args[2]->cpu_id] > 0 ? qlen_6[args[2]->cpu_id] - 1 : 0;
}

sched:::enqueue
/args[1]->pr_pid != 0 && args[2]->cpu_id == 3/
{
  queued_7[args[0]->pr_lwpid, args[2]->cpu_id] = timestamp;
  this->len = ++qlen_7[this->cpu = args[2]->cpu_id];
  @qlen_7[this->cpu] = lquantize(this->len, 0, 64, 2);
}

sched:::dequeue
/this->start = queued_7[args[0]->pr_lwpid, args[2]->cpu_id]/
{
  this->wait = timestamp - this->start;
  @wait_7[stringof(args[1]->pr_fname)] = quantize(this->wait);
  @slow_7[args[1]->pr_pid, stringof(args[1]->pr_fname)] = count();
  queued_7[args[0]->pr_lwpid, args[2]->cpu_id] = 0;
  qlen_7[args[2]->cpu_id] = qlen_7[args[2]->cpu_id] > 0 ? qlen_7[args[2]->cpu_id] - 1 : 0;
}

sched:::enqueue
/args[1]->pr_pid != 0 && args[2]->cpu_id == 0/
{
  queued_8[args[0]->pr_lwpid, args[2]->cpu_id] = timestamp;
  this->len = ++qlen_8[this->cpu = args[2]->cpu_id];
  @qlen_8[this->cpu] = lquantize(this->len, 0, 64, 2);
}

sched:::dequeue
/this->start = queued_8[args[0]->pr_lwpid, args[2]->cpu_id]/
{
  this->wait = timestamp - this->start;
  @wait_8[stringof(args[1]->pr_fname)] = quantize(this->wait);
  @slow_8[args[1]->pr_pid, stringof(args[1]->pr_fname)] = count();
  queued_8[args[0]->pr_lwpid, args[2]->cpu_id] = 0;
  qlen_8[args[2]->cpu_id] = qlen_8[args[2]->cpu_id] > 0 ? qlen_8[args[2]->cpu_id] - 1 : 0;
}

sched:::enqueue
/args[1]->pr_pid != 0 && args[2]->cpu_id == 1/
{
  queued_9[args[0]->pr_lwpid, args[2]->cpu_id] = timestamp;
  this->len = ++qlen_9[this->cpu = args[2]->cpu_id];
  @qlen_9[this->cpu] = lquantize(this->len, 0, 64, 2);
}

sched:::dequeue
/this->start = queued_9[args[0]->pr_lwpid, args[2]->cpu_id]/
{
  this->wait = timestamp - this->start;
  @wait_9[stringof(args[1]->pr_fname)] = quantize(this->wait);
  @slow_9[args[1]->pr_pid, stringof(args[1]->pr_fname)] = count();
  queued_9[args[0]->pr_lwpid, args[2]->cpu_id] = 0;
  qlen_9[args[2]->cpu_id] = qlen_9[args[2]->cpu_id] > 0 ? qlen_9[args[2]->cpu_id] - 1 : 0;
}

sched:::enqueue
/args[1]->pr_pid != 0 && args[2]->cpu_id == 2/
{
  queued_10[args[0]->pr_lwpid, args[2]->cpu_id] = timestamp;
  this->len = ++qlen_10[this->cpu = args[2]->cpu_id];
  @qlen_10[this->cpu] = lquantize(this->len, 0, 64, 2);
}

sched:::dequeue
/this->start = queued_10[args[0]->pr_lwpid, args[2]->cpu_id]/
{
  this->wait = timestamp - this->start;
  @wait_10[stringof(args[1]->pr_fname)] = quantize(this->wait);
  @slow_10[args[1]->pr_pid, stringof(args[1]->pr_fname)] = count();
  queued_10[args[0]->pr_lwpid, args[2]->cpu_id] = 0;
  qlen_10[args[2]->cpu_id] = qlen_10[args[2]->cpu_id] > 0 ? qlen_10[args[2]->cpu_id] - 1 : 0;
}

sched:::enqueue
/args[1]->pr_pid != 0 && args[2]->cpu_id == 3/
{
  queued_11[args[0]->pr_lwpid, args[2]->cpu_id] = timestamp;
  this->len = ++qlen_11[this->cpu = args[2]->cpu_id];
  @qlen_11[this->cpu] = lquantize(this->len, 0, 64, 2);
}

sched:::dequeue
/this->start = queued_11[args[0]->pr_lwpid, args[2]->cpu_id]/
{
  this->wait = timestamp - this->start;
  @wait_11[stringof(args[1]->pr_fname)] = quantize(this->wait);
  @slow_11[args[1]->pr_pid, stringof(args[1]->pr_fname)] = count();
  queued_11[args[0]->pr_lwpid, args[2]->cpu_id] = 0;
  qlen_11[args[2]->cpu_id] = qlen_11[args[2]->cpu_id] > 0 ? qlen_11[args[2]->cpu_id] - 1 : 0;
}

sched:::enqueue
/args[1]->pr_pid != 0 && args[2]->cpu_id == 0/
{
  queued_12[args[0]->pr_lwpid, args[2]->cpu_id] = timestamp;
  this->len = ++qlen_12[this->cpu = args[2]->cpu_id];
  @qlen_12[this->cpu] = lquantize(this->len, 0, 64, 2);
}

sched:::dequeue
/this->start = queued_12[args[0]->pr_lwpid, args[2]->cpu_id]/
{
  this->wait = timestamp - this->start;
  @wait_12[stringof(args[1]->pr_fname)] = quantize(this->wait);
  @slow_12[args[1]->pr_pid, stringof(args[1]->pr_fname)] = count();
  queued_12[args[0]->pr_lwpid, args[2]->cpu_id] = 0;
  qlen_12[args[2]->cpu_id] = qlen_12[args[2]->cpu_id] > 0 ? qlen_12[args[2]->cpu_id] - 1 : 0;
}

sched:::off-cpu
/curlwpsinfo->pr_state == SSLEEP && execname != "swapper"/
{
  self->slept = timestamp;
  self->cpu = cpu;
}

sched:::on-cpu
/self->slept && (timestamp - self->slept) > SLOW_NS/
{
  @offcpu[execname, self->cpu == cpu ? "same cpu" : "migrated"] =
      llquantize(timestamp - self->slept, 10, 3, 9, 10);
  self->slept = 0;
  self->cpu = 0;
}

sched:::wakeup
/curpsinfo->pr_pid != args[1]->pr_pid/
{
  @wakers[execname, stringof(args[1]->pr_fname)] = count();
  @pri[args[0]->pr_pri] = avg(curlwpsinfo->pr_pri);
}

profile:::profile-997hz
/pid != 0/
{
  @oncpu[cpu, execname] = count();
  @ticks = sum(1);
}

profile:::tick-1sec
/timestamp - start > 30 * 1000000000ull/
{
  exit(0);
}

dtrace:::END
{
  printf("%-20s %-20s %8s\n", "WAKER", "WOKEN", "COUNT");
  printa("%-20s %-20s %@8d\n", @wakers);
  normalize(@ticks, 997);
  printa(@oncpu);
  trunc(@offcpu, 10);
  printf("elapsed: %d ms\n", (timestamp - start) / 1000000);
}
