import { NODE_CASES } from './foreign/cases.ts';
import { NODE } from './foreign/deployment.ts';
import { sparWith } from './foreign/sparring.ts';

sparWith(NODE, NODE_CASES);
