import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// Pages load lazily and the grid renders a lot: on a busy 2-core CI machine the defaults (5 s per
// test, 1 s per findBy) fail tests that are correct. These are ceilings, not expected times.
jest.setTimeout(30_000);
configure({ asyncUtilTimeout: 5_000 });
