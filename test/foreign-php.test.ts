import { PHP_CASES } from './foreign/cases.ts';
import { PHP } from './foreign/deployment.ts';
import { sparWith } from './foreign/sparring.ts';

sparWith(PHP, PHP_CASES);
