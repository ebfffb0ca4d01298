/** A filesystem error as ripgrep words it (the cause, without the path or the syscall). */
export function describeError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOENT':
      return 'No such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'Permission denied';
    case 'ENOTDIR':
      return 'Not a directory';
    case 'ELOOP':
      return 'Too many levels of symbolic links';
    default:
      return e.message ?? String(err);
  }
}
