import { mutationPart } from './support/mutation-part.ts';

mutationPart(0);
