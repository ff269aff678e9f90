/*
 * io.d: DTrace's view of block I/O (args[] of io:::start and io:::done), translated from the
 * kernel's block request. The flag values are DTrace's (those of Solaris' buf.h).
 * What a request does not tell reads as DTrace for Linux gives it: the buffer's address, the bytes
 * not transferred and the error 0 (block_rq_complete passes the last two beside the request, not
 * in it), and the file of an I/O "<unknown>" (the block layer does not know it).
 */
inline int B_BUSY = 0x000001;
inline int B_DONE = 0x000002;
inline int B_ERROR = 0x000004;
inline int B_PAGEIO = 0x000010;
inline int B_PHYS = 0x000020;
inline int B_READ = 0x000040;
inline int B_WRITE = 0x000100;
inline int B_ASYNC = 0x000400;

typedef struct bufinfo {
  int b_flags;        /* B_READ or B_WRITE */
  size_t b_bcount;    /* bytes requested */
  caddr_t b_addr;     /* 0 */
  uint64_t b_blkno;   /* first 512-byte sector on the device */
  uint64_t b_lblkno;  /* the same */
  size_t b_resid;     /* 0 */
  size_t b_bufsize;   /* bytes requested */
  caddr_t b_iodone;   /* the completion routine of the request's first bio */
  int b_error;        /* 0 */
  dev_t b_edev;       /* the device (partition) number, as the kernel encodes it */
} bufinfo_t;

/*
 * The partition a request is for; a request without one (a cache flush that fsync() and sync()
 * send) is for its whole disk.
 */
inline struct block_device *__request_device[struct request *R] = R->part != NULL ? R->part : R->q->disk->part0;

/*
 * REQ_OP_* in the low byte of cmd_flags: odd operations write (op_is_write), and a cache flush
 * (REQ_OP_FLUSH, 2) goes to the device as the writes it completes do.
 */
translator bufinfo_t < struct request *R > {
  b_flags = ((R->cmd_flags & 1) || (R->cmd_flags & 0xff) == 2) ? B_WRITE : B_READ;
  b_bcount = R->__data_len;
  b_blkno = R->__sector;
  b_lblkno = R->__sector;
  b_bufsize = R->__data_len;
  b_edev = __request_device[R]->bd_dev;
  b_addr = (caddr_t)0;
  b_resid = 0;
  b_iodone = R->bio != NULL ? (caddr_t)R->bio->bi_end_io : (caddr_t)R->end_io;
  b_error = 0;
};

typedef struct devinfo {
  int dev_major;         /* major number */
  int dev_minor;         /* minor number */
  int dev_instance;      /* partition number, 0 for the whole disk */
  string dev_name;       /* the disk: "vda", "nvme0n1" */
  string dev_statname;   /* the disk or partition as /proc/diskstats names it: "vda1" */
  string dev_pathname;   /* "/dev/" and the statname */
} devinfo_t;

/* The kernel's dev_t: 12 bits of major above 20 bits of minor. */
translator devinfo_t < struct request *R > {
  dev_major = __request_device[R]->bd_dev >> 20;
  dev_minor = __request_device[R]->bd_dev & 0xfffff;
  dev_instance = __request_device[R]->__bd_flags.counter & 0xff;
  dev_name = stringof(__request_device[R]->bd_disk->disk_name);
  dev_statname = stringof(__request_device[R]->bd_device.kobj.name);
  dev_pathname = strjoin("/dev/", stringof(__request_device[R]->bd_device.kobj.name));
};

typedef long long offset_t;

typedef struct fileinfo {
  string fi_name;      /* file name */
  string fi_dirname;   /* directory */
  string fi_pathname;  /* full path */
  offset_t fi_offset;  /* offset in the file, -1 if unknown */
  string fi_fs;        /* file system */
  string fi_mount;     /* mount point */
  int fi_oflags;       /* open flags */
} fileinfo_t;

translator fileinfo_t < struct request *R > {
  fi_name = "<unknown>";
  fi_dirname = "<unknown>";
  fi_pathname = "<unknown>";
  fi_offset = -1;
  fi_fs = "<unknown>";
  fi_mount = "<unknown>";
  fi_oflags = 0;
};

/*
 * fds[fd]: the current process's open file fd. A descriptor that is not open reads "<none>"
 * (offset -1). fi_mount is where the file's file system is mounted; a pipe or a socket, on no
 * mounted tree, reads "/" (the root of its own file system).
 */
translator fileinfo_t < struct file *F > {
  fi_name = F == NULL ? "<none>" : stringof(F->f_path.dentry->d_name.name);
  fi_dirname = F == NULL ? "<none>" : dirname(d_path(&F->f_path));
  fi_pathname = F == NULL ? "<none>" : d_path(&F->f_path);
  fi_offset = F == NULL ? -1 : F->f_pos;
  fi_fs = F == NULL ? "<none>" : stringof(F->f_inode->i_sb->s_type->name);
  fi_mount = F == NULL ? "<none>" : __mount_point(&F->f_path);
  fi_oflags = F == NULL ? 0 : F->f_flags;
};

/*
 * fi_oflags holds the file's f_flags, so its open flags have the Linux kernel's values. Solaris'
 * O_XATTR and O_NOLINKS have no Linux counterpart and are not defined.
 */
inline int O_ACCMODE = 0x3;
inline int O_RDONLY = 0x0;
inline int O_WRONLY = 0x1;
inline int O_RDWR = 0x2;
inline int O_CREAT = 0x40;
inline int O_EXCL = 0x80;
inline int O_NOCTTY = 0x100;
inline int O_TRUNC = 0x200;
inline int O_APPEND = 0x400;
inline int O_NONBLOCK = 0x800;
inline int O_NDELAY = 0x800;
inline int O_DSYNC = 0x1000;
inline int O_DIRECT = 0x4000;
inline int O_LARGEFILE = 0x8000;
inline int O_DIRECTORY = 0x10000;
inline int O_NOFOLLOW = 0x20000;
inline int O_NOATIME = 0x40000;
inline int O_CLOEXEC = 0x80000;
inline int O_SYNC = 0x101000;
inline int O_RSYNC = 0x101000;
inline int O_PATH = 0x200000;
inline int O_TMPFILE = 0x410000;

inline fileinfo_t fds[int fd] = xlate <fileinfo_t> (
    fd >= 0 && fd < curthread->files->fdt->max_fds ? curthread->files->fdt->fd[fd] : NULL);
