import { GO_CASES } from './foreign/cases.ts';
import { GO } from './foreign/deployment.ts';
import { sparWith } from './foreign/sparring.ts';

sparWith(GO, GO_CASES);
