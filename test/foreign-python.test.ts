import { PYTHON_CASES } from './foreign/cases.ts';
import { PYTHON } from './foreign/deployment.ts';
import { sparWith } from './foreign/sparring.ts';

sparWith(PYTHON, PYTHON_CASES);
