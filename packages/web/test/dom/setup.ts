import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Testing Library unmounts automatically only with vitest globals, which this repository does not enable.
afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
