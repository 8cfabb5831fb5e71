"""The judge: does a sentence state a citation triple? Rules first, then the NLI model.

One judge serves verification while answers are made (``generate``) and the alignment metric
(``evaluate``), so the two never disagree; it sits below both.
"""
