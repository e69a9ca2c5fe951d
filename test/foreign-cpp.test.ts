import { CPP_CASES } from './foreign/cases.ts';
import { CPP } from './foreign/deployment.ts';
import { sparWith } from './foreign/sparring.ts';

sparWith(CPP, CPP_CASES);
