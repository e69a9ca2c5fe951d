import { PY2_CASES } from './foreign/cases.ts';
import { PYTHON2 } from './foreign/deployment.ts';
import { sparWith } from './foreign/sparring.ts';

sparWith(PYTHON2, PY2_CASES);
