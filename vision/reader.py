"""The dice reader: a BGR frame in, one DieReading per die out.

How it works, and why:
1. Find dice. A small fully convolutional network (models/detector.onnx) marks die centres on a heat-map at a quarter
   of its input's resolution and says how large each die is. It answers for dice of geometry.DETECTOR_BAND pixels, so
   it runs on a pyramid of the frame whose levels together cover every die size from the smallest readable one to
   nearly the whole frame; with a calibration the die size is known and one level does, and places where the frame
   differs from the calibration's empty table are candidates too (the detector misses dice on busy cloths). A small
   frame (TINY_FRAME) is also searched at full size, shifted and a quarter larger, for dice the first level shows too
   small to be found well; such a die is dropped where a quarter turn of its crop reads another value (TINY_DOUBT).
   Learned centres separate touching dice and ignore most clutter at a cost of a few milliseconds, where colour or
   edge thresholds would depend on the table. Each level is looked at as it is and mirrored: so small a network misses
   dice one way that it finds the other (DiceReader._peaks). A roll of a known set is first searched without the
   mirror images and the small frame's searches, and with them only when the dice read are not the set
   (DiceReader.read).
2. Read each die. A crop around each candidate, cut from the full-resolution frame, goes to a second
   small network (models/classifier.onnx): not a die, 1-6, or a die whose top cannot be read (cocked,
   hidden), in VIEWS quarter turns. The detector's box is often a tenth of a die off and a fifth too large
   or small: a fourth network (models/centring.onnx), which looks at twice the candidate's extent, says
   where the top face lies and how large it is, and the classifier's surer look of the two is kept; each
   reading's outline and colour are taken where that network places the die. A die the classifier is still
   unsure of is looked at again at other sizes, from beside its centre, then in every quarter turn by it
   and by another classifier (models/second-classifier.onnx), and if still unread recoloured: darkened (a
   lamp mirrored in a top pales it), then as a white die (pips of any colour dark on light), then in a photo by
   its red channel (red pips dark on light, then light on dark); without a calibration the two classifiers
   together take the first look at every candidate that may be a die (DiceReader._first_look, _first_looks). In a
   photo, a die moved by a look at another size or from beside is also looked at in its turns where the centring
   network placed it. A die still unread that touches none (or, in a roll, that the leaning network below finds
   flat) is last seen by its chroma alone, where white pips stand out from a coloured body and red ones from a black
   body, and if still unread is given the value all its looks agree on, if they do and are sure enough together
   (DiceReader._read_lone_dice).
   A value is reported only when the networks, averaged over the views, are sure of it; otherwise the value
   is None and the reading says why. A die touching another may lean on it: it must be surer, unless a third
   network (models/leaning.onnx), which sees more round it, finds it lying flat; in a roll of the Qwixx dice,
   a die that network finds leaning is not read. Seen steeply from the side, a side face can look squarer than the
   top and be read as it: a fifth network (models/side-face.onnx), which sees three edges round the face read,
   upright, takes those readings' values back.
3. Name the colour from robust statistics of the die's face in CIELAB (classical, see vision/colour.py),
   or by the nearest calibrated colour when a calibration is given.
The networks are trained by vision/training/train.py (the leaning one by vision/training/leaning.py, the
centring one by vision/training/centring.py, the side-face one by vision/training/sideface.py) and run with
cv2.dnn: no large framework at run time.
"""
from __future__ import annotations

import math
import threading
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Mapping

import cv2
import numpy as np

from calibration.model import EMPTY_TABLE_WIDTH, smoothed_lab, to_lab, where_changed
from vision import colour, geometry
from vision.readings import QWIXX_ROLL, DieReading

MODELS = Path(__file__).resolve().parent / "models"

# Detector: a peak above HEAT_THRESHOLD is a candidate; each level keeps the dice whose extent falls in
# geometry.DETECTOR_BAND widened by BAND_SLACK (network pixels), the first level also smaller ones and the
# last also larger ones. Levels are LEVEL_STEP apart, so that neighbouring bands overlap. The size output
# is often far off for a die with many pips large in the frame (a 110-pixel six, found at the middle level
# with heat 0.93, measured 198): 1.6 rather than 1.25 keeps it, and synth's "large" scenes (16, seeds 500-511
# and 9201-9204) read 64 dice rather than 62, with 2 wrong rather than 4 and 4 false dice rather than 17 (its
# pips); the dev photos and generated scenes the same or a die better (scripts outside the repository).
# HEAT_THRESHOLD 0.25 with today's networks: the dev tune part 417 dice read rather than 416, validation 511 rather than
# 509 (6 wrong either way), but bench/vision.py's 200 generated scenes as rolls 1,062 rather than 1,063 with 7 wrong
# rather than 6, and more false dice in every set: not taken.
HEAT_THRESHOLD = 0.3
LEVEL_STEP = 2.8
BAND_SLACK = 1.6
MAX_CANDIDATES = 48
# Without a calibration, the smallest die looked for is this share of the frame's shorter side (and never
# under SMALLEST_DIE pixels), the largest LARGEST_DIE_SHARE of it. The first level shows the smallest die
# SMALLEST_AT extent pixels across.
SMALLEST_DIE = 10.0
SMALLEST_DIE_SHARE = 0.025
LARGEST_DIE_SHARE = 0.5
SMALLEST_AT = 8.5
# A roll still short of dice once the hidden peaks are read (_hidden_dice) is searched again on a level FINER times
# as large as the first (the smallest die looked for 11.5 pixels across rather than 8.5). On bench/vision.py's 200
# generated scenes read as rolls 980 dice right rather than 948, missed 14 rather than 52, wrong 13 rather than 16
# (FINER 1.18, 1.53 and 1.76: 973, 977 and 975 right); with a die cocked 491 rather than 479, cocked dice given a
# value 3 of 100 either way. bench/table.py, named together: uncalibrated 83 rolls of 100 rather than 81 and cocked
# rolls sent back 100 rather than 96, calibrated 88 rather than 87, none wrong. Per roll read 3% more time (median
# of the ratios on 40 generated frames; mean 10%). A first level that large for every frame would cost a third more
# detector time (scripts outside the repository). Searching at least as finely as shows a 20-pixel die (the issue's
# smallest) SMALLEST_AT across, which only frames of over 1,080 pixels' short side do not already: 30 generated scenes
# of 20-pixel dice at 2304x1296 read as rolls 151 dice of 180 rather than 147 (missed 9 rather than 14; at 18 pixels
# 151 and 6), but bench/vision.py's 200 scenes at 2304x1296 as rolls 1,075 rather than 1,083 and 13 wrong rather than
# 8 (at 18 pixels 1,069 and 13): not taken (scripts outside the repository).
FINER = 1.35
# A frame of at most TINY_FRAME pixels is also searched at full resolution, for dice up to TINY_SLACK times the
# smallest looked for: the first level shows them too small to be found well. The dev photos are 640x640, some
# of whole game boards with dice of 10-16 pixels (the smallest looked for there is 16). A die found by it
# is reported only with a value: what it finds and cannot read is mostly not a die (board pieces, number tokens).
# On the tune part 82.2% of the dice read rather than 78.7%, 4 wrong as before, 31 false dice as before (68 when
# those without a value were kept); TINY_SLACK 1.5 read one die more. Frames larger than this go without it: at
# 640x480 it costs a third more time (28 ms a frame rather than 20), at 1280x720 it would cost more than the
# rest of the reading, and dice of under 18 pixels there are smaller than the issue asks for. Nor is such a die
# reported where a doubt after the first reading (touching dice, side faces) takes its value: of the 34 so doubted in
# the dev tune and train parts, 29 were no labelled die. False dice there 29 and 151 rather than 33 and 181, the
# validation part 62 rather than 66 and the duplicates 49 rather than 50, as many dice read; bench/vision.py's 200
# generated scenes at 640x480 one die at a time then leave out four dice of 10-14 pixels they had reported unreadable,
# rightly by its count (991 read rather than 993; with a die cocked 459 rather than 463). That last check alone, with
# none in _dice, reads the train part 1,521 rather than 1,523: a tiny die without a value kept so long hides others.
# That search is made on several samplings of the frame (TINY_SAMPLINGS: each a zoom and the pixels cut off the
# frame's top and left first): as with the mirror (_peaks), the detector finds some dice at one sampling that it
# misses at another. The frame enlarged by a quarter, against full size alone (bench/vision.py): the dev tune part 430
# dice of 478 read rather than 423 (3 wrong either way; 1.2 or 1.3 rather than 1.25: 429 and 428), the train part
# 1,512 of 1,875 rather than 1,490 (13 wrong rather than 12), the duplicates 293 of 398 rather than 287 (3 wrong), the
# validation part 533 of 635 rather than 526, 7 wrong rather than 6 (a die of 14 by 9 pixels read as 6 rather than 3);
# the colour-labelled photos as before (187 of 198, 5 wrong). 1.25 alone read 427 of the tune part, 1.5 or 0.8 alone
# 419; the enlarged frame without its mirror image 428; 1.0, 1.25 and 1.5 together 429. Then also at full size cut by
# half the detector's stride of 4 pixels: the tune part 434 rather than 430 (cut by 1 or 3 pixels: 432 and 434), the
# train part 1,524 rather than 1,512, the duplicates 299 rather than 293, the validation part 535 rather than 533, as
# many wrong (3, 13, 3 and 7); the colour-labelled photos as before. Both against full size alone on bench/vision.py's
# 200 generated scenes at 640x480: as rolls 1,042 dice read rather than 1,041 (6 wrong), one at a time 994 rather than
# 1,001 (12 wrong rather than 11; 996 and 11 with the enlarged frame alone); with a die cocked as rolls 486 either way
# (37 wrong, 32 cocked dice given a value), one at a time 463 either way (38 wrong rather than 39, cocked dice given a
# value 32 rather than 33). They cost nothing in a roll read as the set, but a 640x480 frame read one die at a time
# takes 1.73 times as long (80 ms rather than 46; the enlarged frame alone 66 ms; medians of 20 generated frames, each
# way twice).
TINY_FRAME = 640 * 640
TINY_SLACK = 1.3
TINY_SAMPLINGS = ((1.0, 0), (1.25, 0), (1.0, 2))  # (zoom, pixels cut off the top and left)
# A die only that search finds is small, so read wrong more easily: it is left out when any quarter turn of its crop,
# seen by both classifiers, is TINY_DOUBT sure of another value. On the dev tune part 434 dice read as before, 2 wrong
# rather than 3 (0.3: 433 and 2; 0.7: 434 and 3); the train part 1,523 rather than 1,524, 13 wrong either way, 181
# false dice rather than 185; the duplicates as before (299, 3 wrong); then the validation part 535 as before, 6 wrong
# rather than 7; the colour-labelled photos as before. bench/vision.py's 200 generated scenes at 640x480, one die at a
# time 993 dice read rather than 994 (12 wrong), as rolls 1,042 with 5 wrong rather than 6; with a die cocked as
# before. A 640x480 frame read one die at a time takes 2% more time (median of the per-frame ratios on 20 generated
# frames, the two ways in turn). The crop looked at 0.8 and 1.3 times its extent instead: the tune part the same, the
# train part 1,520. Every die read so doubted (left unread): the tune part 431 and 2 wrong, the train part 1,517 and
# 10, the 200 generated scenes as rolls 1,081 and 2 rather than 1,082 and 3, for eight more crops a die. With the
# doubt, a fourth sampling (enlarged, and cut by 2 pixels) read the tune part 437, the train part 1,523 and the
# duplicates 301 rather than 299, but the validation part 532 rather than 535 (scripts outside the repository).
TINY_DOUBT = 0.5
# With a calibration's empty table, places where the table changed as a die changes it (calibration.where_changed)
# are candidates too where the detector found none: it misses dice on a busy table (checks, dots, stripes), where
# the empty table shows them plainly. The frame is compared at the empty table's stored size; a place
# is a point of a changed region at least CHANGED_DEPTH die edges from its border, the deepest first, places at
# least CHANGED_SPACING edges apart (touching dice make one region); a die-sized region with no such point (a red
# die on a red table changes little but its pips) gives its centre. Regions of under CHANGED_AREA[0] die areas are
# noise, over CHANGED_AREA[1] a hand or a change of light. Every candidate where the table changed is looked at as
# closely as a SURE_PEAK detector peak: on a striped cloth the detector's weak peaks on dice had been dropped at the
# classifier's first look, which the centring network's look then read. On bench/table.py's tables 20-39 (the
# product's way, calibrated, rolls named together; scripts outside the repository) 65 rolls of 95 were announced
# rather than 63, dice missing 14 rather than 32 (spacing 0.9 or regions up to 40 areas: the same within a roll),
# and with those closer looks (and calibrate's own use of it, calibration.learn) 69 of 100, table 21 calibrating
# now; on its own tables 54 of 80 rather than 53 (the 16 that calibrated before), none wrong. It costs a quarter
# more time per calibrated frame (15 ms rather than 11.5, median at 1280x720 on tables 20-31).
CHANGED_DEPTH = 0.25
CHANGED_SPACING = 0.7
CHANGED_AREA = (0.4, 12.0)
DIE_SIZED_REGION = (4.0, 2.5)  # die areas, and die edges across
# A place where the table changed that the classifier finds no die may be a die's shadow, or the cloth a die changed
# beside a top that matches it (a white die on a white square of a checked cloth changes only its shadow and the
# squares it covers): it is looked at again from AROUND of its extent away in eight directions. bench/table.py's
# tables 0-79 (product way, 5 flat and 6 cocked rolls each; scripts outside the repository): 340 of 390 flat rolls
# announced rather than 336, the same on 72 tables, one more on four patterned or paper ones; of 462 cocked rolls
# 10 announced rather than 9: a cocked roll whose white die had been missing (sent back, by luck) is now announced
# with the cocked red die's tilted 6, while another's cocked die, missing before, is now found and sent back. With
# the lowered exposure where calibration finds the dice washed out (bench/table.py, 400 flat rolls, 470 cocked): 0.5
# announced 347 flat rolls as 0.7 does, 0.9 343, cocked rolls 10, 10 and 9.
AROUND = 0.7
# A top face's box over its edge, a little larger when the die is turned: a calibrated die's extent.
TURNED_BOX = 1.2
# Reading: the value must have at least this probability among values, averaged over the views (set on
# the dev photos' tune part: lower gives more values and more wrong ones; a classical pip count as second
# opinion added as many wrong values as right ones there). 0.92 rather than 0.9 since the centring network
# (centre): 78.7% of the tune part's dice read rather than 78.5%, 0.84% wrong rather than 1.05% (TOUCHING 1.55).
VALUE_CONFIDENCE = 0.92
# A candidate is a die from this probability on. 0.8 rather than 0.6 since false dice no longer hide real
# ones (the pip and heap rules below): on the dev tune part 35 false dice rather than 58 with as many read,
# on 100 generated scenes (as rolls) 4 rather than 12, 71.0% read rather than 70.2% and 1.83% wrong
# rather than 2.50%; 0.9 read fewer dice (scripts outside the repository). Below 0.75 a thing showing no
# pips had to be dropped as a button or a coin; from 0.8 on the classifier's word suffices.
DIE_PROBABILITY = 0.8
# A die leaning on another shows the classifier a tilted top it finds less die-like: in a roll short of a die, a
# candidate at least NEAR_MISS a die, centred more than ONE_DIE but less than TOUCHING edges from a die found, is
# that die resting cocked (rather than one reported missing while it lies on the table: the test film rolls-1's
# yellow die leaning on the red one, 0.74 a die).
NEAR_MISS = 0.5
ONE_DIE = 0.8
# Only a die touching another can rest cocked against it, and the classifier tells a tilted top from a flat
# one poorly in one view, better in several: a die whose centre lies within TOUCHING edges of another's is
# given its value only with at least TOUCHING_CONFIDENCE, and only when none of its quarter turns gives
# "unreadable" LEANING_SHARE or more of the probability it gives a die; otherwise it is reported as perhaps
# cocked. Chosen on the dev tune part and on generated scenes, 100 of them with a die leaning (scripts
# outside the repository): the leaning dice given a value went from 35 to 20, with 75.3% of tune dice read
# as before and 70.0% of generated ones rather than 70.2% (0.93 and no look at the turns). 0.9 read 0.6
# tune and 1.5 generated points more, and the validation part, looked at before choosing, one wrong value
# more (9 of 635); a share of 0.08 read 17 leaning dice and 1.3 generated points fewer.
# A third network (models/leaning.onnx, vision/training/leaning.py), which sees more round the die and has learned
# from generated scenes a die leaning on another from one lying flat beside it, clears that doubt when it gives
# the die, and every die it touches, under FLAT_LEANING probability of leaning (averaged over the quarter turns):
# where one of two touching dice may lean, the crops of either show it. (Clearing each die by its own probability
# read more generated dice, 75.5% rather than 73.7%, but cleared a flat blue die beside a green one leaning on it
# on the green cloth of the demo recording, whose doubt alone had sent that roll back: the green die was given a
# value.) It adds a doubt only in a roll of a known set (ROLL_LEANING): on the dev photos it calls many flat dice
# leaning, at 0.99 and more (it has never seen a real die); adding those doubts read 72.4% of the tune part's dice
# rather than 77.6%. Clearing only, more dice can be checked: a leaning die's top face is often further than 1.3
# edges from its support's. Against the
# reader before it (TOUCHING 1.3, no network): bench/vision.py's hundred leaning dice (read as rolls) given a value
# 17 rather than 25; tune part 76.8% read rather than 77.2% (1.05% wrong, as before); 100 generated scenes as
# rolls 73.7% rather than 72.3% (1.67% wrong rather than 1.83%); bench/table.py's product way on 20 other tables
# (seeds 20-39) 60 rolls of 95 announced rather than 57, and on its own tables (0-19) 56 of 90 rather than 57,
# none wrong. With TOUCHING 1.3 instead, 25 leaning dice were given a value (as before), with 1.6 15 but fewer
# rolls announced (53 of 90 where 1.45 gave 58, clearing each die by its own probability). FLAT_LEANING from 0.02
# to 0.6 gave the same within a roll; without this doubt at all 55 leaning dice were given a value (scripts outside
# the repository). Since the centring network (centre) the readings' outlines are the top faces it finds, often
# smaller than the detector's boxes were: 1.6 rather than 1.45 keeps the leaning dice given a value at 17 (1.45:
# 23, 1.55: 18, 1.7: 17), tables 20-39 63 rolls of 95 announced rather than 65 (1.7: 62), tune part and generated
# scenes within a die (without ROLL_LEANING, with the centring network's first look for every candidate).
# With the classifiers retrained on table rolls, TOUCHING_CONFIDENCE 0.9 rather than 0.92: the demo recording's flat
# blue die touching the green one leaning on it (read 3 at 0.91) is no longer sent back with it; tables 0-39, the
# tune part and the leaning dice the same within a die. Those classifiers give a leaning die's turns less
# "unreadable": at LEANING_SHARE 0.1 bench/vision.py's hundred leaning dice (read one at a time) were given a value
# 33 times (17 before them); at 0.08, 0.07, 0.06 and 0.04: 19, 12, 8 and 4, with 84.5%, 84.1%, 83.3% and 81.2% of
# the tune part's dice read (82.2% before them; 1.46% wrong at each) and 72.3%, 71.7%, 71.2% and 70.0% of 100
# generated scenes read one at a time (72.3% before). Scripts outside the repository.
# TOUCHING_CONFIDENCE set again with today's networks (AS_WHITE_CONFIDENCE 0.85), 0.85: the tune part 418 dice read
# rather than 416, the validation part 510 rather than 509 (6 wrong either way), but of bench/vision.py's cocked dice
# read as rolls 22 given a value rather than 21: not taken.
# A cocked die's top leans away from its support, so its face's centre lies further from the support's than a flat
# die's would: of bench/table.py's rolls with a die cocked (tables 0-39, five each), the ones announced had mostly
# given the cocked die a value without a doubt, its centre 1.6-1.7 edges from its support's. TOUCHING 1.7 rather
# than 1.6: 5 of those 228 rolls announced rather than 8, 162 of its 190 flat rolls rather than 163 (1.8: 5 and 161;
# 2.0: 5 and 159); dev validation and tune part the same within a die, 200 generated scenes as rolls 77.2% read
# rather than 77.7%, none more wrong, and their leaning dice given a value 3 of 100 rather than 4. Since calibrations
# take the dice's true size (calibration.learn): 6 cocked rolls and 166 flat ones rather than 8 and 167.
TOUCHING = 1.7
TOUCHING_CONFIDENCE = 0.9
LEANING_SHARE = 0.06
FLAT_LEANING = 0.1
# In a roll of a known set (dice_set given: the tracker's reading of a Qwixx roll, the kind of scene the leaning
# network learned from), a touching die it finds ROLL_LEANING or more likely leaning is doubted too, and the
# classifier's turns doubt it from ROLL_LEANING_SHARE of "unreadable" rather than LEANING_SHARE. On bench/vision.py's
# scenes read as rolls the turns' share alone (sure, under 0.6 leaning) had doubted 36 flat dice and 2 leaning ones,
# both found 0.49-0.53 leaning by the network; bench/table.py's tables 20-39, whose dice all lie flat, lost 16 of
# their 27 "cocked" doubts to it. At 0.45 and 0.15: leaning dice given a value (of 100, as rolls) 2 rather than 4,
# tables 20-39 63 rolls of 95 announced rather than 59, none wrong (0.2: 65; the turns not asked: 66, which leaves
# the network, which has never seen a real die, alone on guard), bench/table.py's own tables (0-19) 56 of 90 rather
# than 57, the 200 generated scenes as rolls 75.2% read rather than 74.8% (27 wrong, as before).
# Before (0.6, the turns at LEANING_SHARE): 4 leaning dice of 100 given a value rather than 17, for 74.8% of the 200
# generated scenes as rolls read rather than 75.6%, tables 59 rolls announced rather than 63 (0.7: 60); the demo
# recording's roll with a green die leaning on the blue one (0.66 leaning) is sent back rather than announced with
# the tilted 1 the green die shows. Not for photos of other dice: there the network calls many flat dice leaning
# (doubting at 0.6 in every frame read 71.1% of the dev tune part's dice rather than 78.7%).
# The leaning network retrained with cocked dice showing any face (vision/training/leaning.py): of 228 rolls of
# bench/table.py's kind with a die cocked (tables 0-39, calibrated, half showing a 1), 54 cocked dice given a value
# rather than 58; at 0.3, 41, but tables 0-19 and 20-39 announced 51 and 68 rolls rather than 55 and 70.
# Retrained on three times as many table rolls, it gives 18 of those cocked dice a value at 0.45 and 14 at 0.3, for
# 66 and 65 flat rolls of tables 0-19 announced and 79 and 77 of tables 20-39 (0.2: 13 cocked dice, 61 and 76 rolls).
# A cocked die given a value is a roll announced wrong, a flat roll doubted only a re-roll: 0.3.
# In a roll, a touching die the network finds flat (under FLAT_LEANING) keeps its value whatever its neighbours, its
# turns and its confidence (TOUCHING_CONFIDENCE): it is read as a die touching none. Of bench/vision.py's 200 scenes
# and 100 with a die cocked, read as rolls, the 20 touching dice doubted though the network found them flat were flat
# dice with their value read right, 14 of them doubted for a confidence of 0.78-0.89 (scripts outside the repository).
# The 200 scenes as rolls 1,081 dice read rather than 1,072 (3 wrong either way); 300 with a die cocked 1,527 rather
# than 1,494, cocked dice given a value 75 rather than 74 (a yellow die in a cluster of four that the network finds
# 0.01 leaning, doubted before for a confidence of 0.86), rolls announced wrong 38 rather than 37; --conditions 40
# as rolls 5,687 read rather than 5,626, 73 wrong rather than 70, all three in rolls sent back for other dice (441
# of the 1,080 rolls at 1280x720 announced right rather than 432, 5 wrong either way); bench/table.py --tables 10
# named together uncalibrated 44 rolls of 50 announced rather than 41, the rest the same, none wrong, cocked rolls
# announced as before; bench/tracker.py --films 11 and the dev photos the same. bench/photoreal.py's Cycles frames (60
# scenes, 30 with a die cocked) as rolls 312 and 145 dice read rather than 310 and 142, cocked dice given a value 8 of
# 30 either way.
ROLL_LEANING = 0.3
ROLL_LEANING_SHARE = 0.15
# A touching die of LARGE_DIE_EXTENT pixels or more is judged by the leaning network alone where it is sure: read when
# the network finds it flat (under FLAT_LEANING), whatever its neighbours and its turns, and doubted when it finds it
# LARGE_LEANING, however flat the turns look. Seen that large, flat dice are often a little "unreadable" in one of the
# classifier's turns, while the network tells them from cocked ones better than the turns do. 40 scenes each of synth's
# "close" (200-pixel dice) and "large" (110) conditions with a die cocked (seeds 900000-900039): flat dice read 68 of 73
# rather than 46 and 162 of 186 rather than 151, cocked dice given a value 7 of 36 rather than 10 and 11 of 37 rather
# than 10 (with 90 pixels the same; judged by the network in the roll's way, ROLL_LEANING_SHARE rather than its word
# alone: 72 and 157 read, 13 and 10 given a value). bench/vision.py --conditions 40: "large" 177 dice read rather than
# 168 one at a time (177 rather than 171 as rolls), "close" 94 rather than 90; every other condition, the 200 generated
# scenes (with and without a die cocked) and the dev photos the same to the die, but the train part 1,471 rather than
# 1,470. LARGE_LEANING 0.65 reads the scenes the same; 0.3 and 0.5 doubted flat real dice (the train part 1,469, the
# duplicates 280 rather than 281; the validation part lost an oblique white six found 0.75 leaning; scripts outside the
# repository). At 2304x1296 (bench/vision.py --size) the 200 scenes as rolls 1,107 rather than 1,105, cocked dice given
# a value 28 of 100 either way. Judged by the network at LARGE_LEANING in a roll too (not at ROLL_LEANING): "large"
# cocked dice given a value 15 of 37 rather than 11: not taken. Dice that large are for photos: the camera sees 20-30
# pixels.
LARGE_DIE_EXTENT = 60.0
LARGE_LEANING = 0.8
# A reading the side-face network (vision/training/sideface.py) finds this likely to be of a side face loses its value.
# Against the reader without it, bench/vision.py read as rolls: of 100 generated scenes from a camera leaning 55 degrees
# (--tilt 55), 7 dice wrong in their box and 7 read beside it with another value rather than 13 and 74, 137 read rather
# than 134; leaning 30, 8 and 0 rather than 9 and 1, 425 read rather than 426; the 200 default scenes 1,059 read either
# way, none beside rather than 1; the dev photos' validation part 504 read either way, 10 wrong rather than 11, 2 beside
# rather than 4; the tune part 410 either way, 4 beside rather than 6; bench/table.py and bench/tracker.py the same. The
# tune part reads the same at 0.5-0.95, the validation part 500 dice (9 wrong) at 0.5 and 503 (9) at 0.8; the generated
# scenes at 55 degrees 3 wrong and 1 beside at 0.5, for 3 read fewer. The network sees each crop and its mirror image:
# one view alone read 2 dice fewer of the 30-degree scenes and 1 fewer of the tune part, for about half the 5 ms (a
# twentieth of a read here, medians over 40 generated frames) the two take (scripts outside the repository).
SIDE_FACE = 0.9
# Below this extent a die's pips are a pixel or two: its value is never given.
READABLE_EXTENT = 11.0
# A die is blurred when, along some direction, its peak gradient is below this many times its contrast. Blur along one
# direction (camera shake, a die still sliding) leaves the edges across it sharp, so the weakest of BLUR_DIRECTIONS is
# measured rather than the gradient's magnitude; defocus weakens every direction alike. Set on generated scenes of seeds
# 3000-3023 (camera shake, motion blur and seven conditions without blur): of the unread dice the truth calls blurred,
# 54 of 94 shaken and 23 of 38 moving were then said blurred, and 2 of 158 unread dice without blur; the dev tune part's
# 20 unread dice measure at least 1.6. On the seeds bench/vision.py's --conditions draws (0-23): shaken 63 of 106 (7 by
# the gradient's magnitude below 1.8 before), moving 15 of 29 (3), defocused 63 of 77 unread (58), and 9 of 206 unread
# dice without blur, mostly of 16-21 pixels (0 before). Scripts outside the repository.
BLURRED_SHARPNESS = 1.4
BLUR_DIRECTIONS = 12
EDGE_MARGIN = 0.15  # share of the extent that may lie outside the frame before the die counts as cut off
# A candidate this much larger than another whose centre lies inside it is a different reading of the same
# place: a die and one of its pips, or a heap of dice and one of them. The smaller does not hide the larger
# before both are read when it is smaller than any die looked for or PIP_SCALE times smaller (a pip: on a
# 3000x1500 photo of 150-pixel dice the pips, found more strongly than their dice, had hidden them).
# Exempting every candidate LARGER_DIE times smaller read 73.2% of the dev tune part's dice rather than
# 74.7% (heaps hid their dice). PIP_SCALE, on the dev photos, generated scenes and 12 scenes each of synth's
# "large" (110 px) and "close" (200 px) conditions (scripts outside the repository), against exempting
# only candidates smaller than any die: validation 67.9% read rather than 67.7%, tune part 74.7% rather
# than 75.5%, labels.json 80.8% rather than 81.8%, generated scenes unchanged, large dice 47 of 71 rather
# than 36 and close ones 26 of 35 rather than 19, with 4 wrong there rather than 9.
# After reading, of two readings where one holds the other's centre (whatever the size, as the looks may
# have moved them), the larger is kept unless only the smaller shows a value: otherwise a heap read as no
# die, around a die read, was reported as a second die (the test film rolls-1: a roll sent back).
# A reading that holds HEAP_DICE or more dice read with values is a heap of them and is dropped first: two
# dice side by side look to a coarse level like one die showing 2 (a dev tune photo: a 190-pixel "white 2"
# around a red and a yellow die, which gave way to it). On the dev tune part 75.7% of dice read rather than
# 74.7%, labels.json 81.8% rather than 80.8%, wrong values, generated, large and close scenes unchanged.
LARGER_DIE = 1.6
PIP_SCALE = 3.0
# A photo may show dice on a game board, which a coarse level of the detector takes for one huge die around them: in a
# photo (no dice set given), a weaker candidate inside a stronger one BOARD_SCALE times larger is looked at too. Not in
# a roll of a known set, whose table holds dice and score pads: there a score pad's cells were read as dice (at 8
# times, bench/vision.py's 200 generated scenes as rolls 1,080 dice read rather than 1,082). In photos, the dev photos'
# validation part 517 dice of 635 read rather than 511 (dice under 20 px on Vis-DiceX2's Catan boards; 6 wrong either
# way), the train part 1,474 rather than 1,471, the duplicates 285 rather than 281, the tune part and the
# colour-labelled photos as before; of bench/vision.py's generated scenes read one at a time (the 200, the 100 with a
# die cocked, --conditions 40) one false die more, in "large". At 8 and 12 times, the pips of "large" and "close" dice
# (110-200 px) were read as dice of their own: of those 40 scenes each, 13 and 12 false dice rather than 6 and 6, 4 and
# 7 wrong rather than 1 and 2 at 8 (validation 520 read); 8 and 7 false, 1 and 3 wrong at 12 (519; scripts outside the
# repository).
BOARD_SCALE = 16.0
HEAP_DICE = 2
# The classifier's classes: not a die, 1-6, a die whose top cannot be read.
NOT_A_DIE, UNREADABLE, CLASS_COUNT = 0, 7, 8
# The classifier can see each crop turned by 0..VIEWS-1 quarters (it was trained on every turn). With the
# networks trained on the GPU one view reads more dice on the tune part than the average of two (73.0%
# against 70.0% at the same 1.0% wrong) in half the time.
VIEWS = 1
# Extents (times the detector's) at which a die the classifier is unsure of is looked at again; so is a
# detector peak at least SURE_PEAK strong that the classifier took for background at the detector's size.
# SURE_PEAK 0.4 with today's networks: the tune part 418 dice read rather than 416, validation 510 rather than 509
# (6 wrong), but the 200 generated scenes as rolls 1,062 with 7 wrong, and more false dice on the dev photos
# (validation 84 rather than 66): not taken.
RESCALED = (0.8, 1.3, 1.7)
SURE_PEAK = 0.5
# Then, if still unsure but at least SHIFT_FROM sure, it is looked at from centres SHIFT of its extent away
# in x, y or both, and takes a shifted look only at SHIFTED_CONFIDENCE: the surest of eight more looks is
# wrong more often. On the dev tune part (scripts outside the repository) 74.5% of dice were then read
# rather than 71.8%, with wrong values unchanged at 1.05%; keeping any surer look read 75.7% with 1.46%
# wrong; shifts of 0.1 and 0.2 read 74.1% and 73.4% (1.46% wrong); four shifts rather than eight 73.4%.
# Dice below SHIFT_FROM gain less from these looks, and cost more crops: with this classifier SHIFT_FROM 0.5
# read 76.2% of the tune part's dice rather than 75.7%, generated scenes (100, as rolls) 70.2% rather than
# 69.5%, wrong values unchanged, and bench/table.py's product way (calibrated, rolls) announced 55 of 90
# rather than 53; per generated 1280x720 frame 4% more time (median of the ratios taking the two in turn; mean 12%).
# SHIFTED_CONFIDENCE set again with today's networks (AS_WHITE_CONFIDENCE 0.85), 0.93: the tune part 417 dice read
# rather than 416 (3 wrong either way), but the validation part 511 rather than 509, 9 wrong rather than 6: not taken.
SHIFT = 0.15
SHIFTED_CONFIDENCE = 0.95
SHIFT_FROM = 0.5
# Last, a die still at least SHIFT_FROM but not VALUE_CONFIDENCE sure is looked at in TURNED_VIEWS quarter
# turns of its crop, and read when their average is TURNED_CONFIDENCE sure: averaged over its turns the
# network is seldom sure and wrong. On the dev tune part 75.3% of dice were then read rather than 74.5%, on
# 100 generated Qwixx scenes (read as rolls) 70.2% rather than 66.8%, wrong values unchanged at 1.05% and
# 2.5% (scripts outside the repository). Eight views (mirrored too) read no more. With the second
# classifier below, 0.82 rather than 0.85: tune part 77.2% rather than 76.8%, generated 72.3% rather than
# 71.8%, wrong values and leaning dice given a value unchanged (20 and 25 of the two hundreds), and
# bench/table.py's product way 57 of 90 rather than 55, none wrong (alone, 0.82 gave 3 more leaning dice
# of bench/vision.py's hundred a value). Since a roll short of dice is searched again (_hidden_dice, FINER), 0.78
# rather than 0.82: 200 generated scenes as rolls 1002 dice read rather than 982 (12 wrong rather than 11), with a die
# cocked 498 rather than 494 (7 wrong, cocked dice given a value 3 of 100, as before); the tune part the same (397 of
# 478, 7 wrong); bench/table.py uncalibrated and named together 84 rolls of 100 rather than 83, calibrated 88 as
# before, none wrong; of the cocked rolls of its tables 0-39 (six each, calibrated) 162 name the cocked die cocked
# rather than 148, 6 announced as before; bench/tracker.py the same. At 0.75: 1012 read, 13 wrong, tune part 398.
TURNED_VIEWS = 4
TURNED_CONFIDENCE = 0.78
# A die still unread then is seen in its turns darkened (each crop's levels squared, as fractions of white) by both
# classifiers, and read when that look is TURNED_CONFIDENCE sure: a lamp mirrored in the dice's tops pales them (a
# red die's top pink, its white pips faint), and darkening gives back some of the contrast of the die's own colour.
# Against the reader without it: bench/tracker.py's rendered films 100-102 and 106-110 announce 21 rolls of 32 rather
# than 18 (none wrong); bench/vision.py's 200 generated scenes as rolls 1,033 dice read rather than 1,026, 11 wrong
# rather than 10 (a blue die whitened by the glare named white, its value right), with a die cocked 483 rather than
# 477 (32 wrong rather than 31, cocked dice given a value 23 of 100 either way); the dev validation part 504 of 635
# rather than 502, the tune part 407 of 478 rather than 406 (11 and 6 wrong either way); bench/table.py uncalibrated
# 88 rolls of 100 rather than 87 named together, calibrated 91 as before, none wrong. 2% more time per 1280x720 frame,
# 11% at 640x480, where more dice are small enough to stay unread (medians; scripts outside the repository). Levels
# cubed, or to the fourth power: the validation part 510 or 511 dice read rather than 509 (6 wrong each way), but the
# train part 1,458 rather than 1,461 and 14 wrong rather than 12, the 200 generated scenes as rolls 1,059 or 1,056
# rather than 1,057 (5 wrong rather than 6), bench/tracker.py --films 11 45 rolls of 53 either way: not taken.
DARKENING = (np.linspace(0.0, 1.0, 256) ** 2 * 255).round().astype(np.uint8)
# Last, a die still unread is seen as a white die (_as_a_white_die): each pixel grey by its distance (CIELAB, times
# AS_WHITE_GAIN) from the colour the crop's middle shows, light where alike, so that pips of any colour on a body of any
# colour stand dark on light, as a white die's do. Red pips on a black or blue die differ from it in hue far more than
# in lightness, and the classifier, which sees lightness most, leaves them unread. A look the classifier has never been
# trained on must be AS_WHITE_CONFIDENCE sure. Against the reader without it: the dev validation and tune parts 914 dice
# of 1,113 read rather than 911 (three dice with red pips), 17 wrong either way (at TURNED_CONFIDENCE 917 and 19);
# bench/vision.py's 200 generated scenes as rolls 1,045 rather than 1,037, 7 wrong either way, with a die cocked 485
# rather than 483 (32 wrong, cocked dice given a value 23 of 100, either way); the rendered films 100-102 and 106-110 22
# rolls of 32 rather than 21, none wrong; bench/table.py uncalibrated, named together, 89 rolls of 100 rather than 88,
# calibrated 91 as before, none wrong (uncalibrated one die at a time, not the tracker's way, a cocked die's roll more
# announced: 2 of 100). 3% more time per 1280x720 frame, 2% at 640x480 (medians; scripts outside the repository).
# With today's networks, set again on the tune part: 0.85 rather than 0.9 read 416 of its dice rather than 415 and the
# train part 1,467 rather than 1,464, as many wrong (3 and 12); 0.8 read 417 and 1,470 but 13 wrong in the train part.
# At 0.85 the validation part, the duplicates and the colour-labelled photos read as before (509, 279 and 179); the 200
# generated scenes 987 dice rather than 984 one at a time and 1,063 rather than 1,061 as rolls (25 and 6 wrong either
# way); with a die cocked 422 rather than 421 one at a time (44 wrong rather than 43: a glare-bleached blue 4, unread
# before, named white) and 501 rather than 500 as rolls (23 wrong, cocked dice given a value 32 and 21, either way);
# bench/table.py --tables 10 calibrated 41 and 45 rolls of 50 rather than 40 and 44, uncalibrated 37 and 41 as before,
# none wrong; bench/tracker.py 9 of 9 rolls.
AS_WHITE_GAIN = 3.0
AS_WHITE_MIDDLE = 0.2  # the middle's half-side, a share of the crop's
AS_WHITE_CONFIDENCE = 0.85
# A die still unread ("occluded") and touching no other is last seen grey by each pixel's chroma (CIELAB, times
# CHROMA_GAIN), light where colourless (_by_chroma). Qwixx's coloured dice have white pips: a lamp mirrored in a top
# pales body and pips alike (pink on white), dim light darkens both, and the classifier, which sees lightness most,
# finds little contrast left; their chroma still differs. A black, white or marbled die's red pips differ from its
# body in chroma far more than in lightness. A look the classifier was never trained on, it must be
# AS_WHITE_CONFIDENCE sure; a die touching another may lean on it (_doubt_touching_dice), so is left as it is, unless
# in a roll the leaning network finds it flat: it is then looked at as a die touching none. That last: bench/vision.py's
# 200 generated scenes as rolls 1,082 dice read rather than 1,081, the 300 with a die cocked 1,528 rather than 1,527
# (cocked dice given a value 75 either way); --conditions 40 as rolls 7 more read, 1 more wrong (a glare-paled blue die
# named white, unread before, in a roll sent back for other dice), one at a time 4 more; bench/photoreal.py's Cycles
# frames 290 rather than 289 one at a time and 313 rather than 312 as rolls, none more wrong; the dev photos,
# bench/table.py --tables 10 and bench/tracker.py --films 11 as before.
# Taken first for a roll's coloured dice alone: bench/vision.py's 200 generated scenes as rolls 1,072 dice read rather
# than 1,068, scenes 200-399 1,065 rather than 1,056; with a die cocked 503 rather than 501 and scenes 100-199 496
# rather than 495; no more wrong, nor cocked dice given a value. bench/photoreal.py's Cycles frames as rolls 310 rather
# than 306 (2 wrong either way). At 0.8 rather than 0.85, 5, 12, 4 and 3 more, but a Cycles yellow 2 read as a 3.
# bench/table.py --tables 10 and the rendered films read as before (the films' glare-paled blue 5s are 0.80-0.82 sure
# by chroma). Then for every die, read as a roll or not (most of those it reads in photos black dice with red pips):
# the dev validation part 511 dice of 635 read rather than 509, the tune part 417 of 478 rather than 416, the train
# part 1,470 rather than 1,467, the duplicates 281 rather than 279, as many wrong (6, 3, 12 and 3); the 200 generated
# scenes one at a time 992 rather than 987, with a die cocked 424 rather than 422 and as rolls 504 rather than 503, as
# many wrong (25, 44 and 23; cocked dice given a value 32 and 21); the 200 as rolls, the colour-labelled photos,
# bench/table.py --tables 10 and the films as before. One die at a time it takes 1.006 of the time per generated frame
# (median of the ratios, the two ways in turn on 40 frames at 1280x720 and at 640x480). Among the classifier's last
# looks at every die (after _as_a_white_die) rather than here, the validation part read 510 with 7 wrong (a red die
# with gold pips read as a 1); with a photo's touching dice looked at too, bench/vision.py's cocked dice one at a time
# 33 of 100 given a value rather than 32 (scripts outside the repository).
CHROMA_GAIN = 4.0
# A die still unread after that, that the classifiers' turns (each alone), the darkened look, the look as a white die
# and the chroma look all take for the same value, each at least DIE_PROBABILITY a die, is read with that value when
# their sureness averages AGREED_CONFIDENCE or more (_agreed_value). None of them is sure, but five ways of seeing a die
# rarely agree by chance: a lamp mirrored in a top leaves every look unsure of the same right value (bench/tracker.py's
# film 107: a green 2 paled by glare, 0.40-0.78 sure in each look). Against the reader without it: bench/tracker.py
# --films 11 48 rolls of 53 right rather than 46, none announced wrong; bench/vision.py's 200 generated scenes as rolls
# 1,088 dice of 1,200 read rather than 1,082, one at a time 1,044 rather than 1,040, as many wrong (3 and 9); the dev
# train part 1,525 rather than 1,523, the duplicates 300 rather than 299, as many wrong (13 and 3); the tune part and
# the colour-labelled photos as before; with a die cocked 518 of 600 rather than 514 as rolls and 484 rather than 480
# one at a time, as many wrong (23 and 33) and cocked dice given a value (21 and 25), since only a die touching none is
# looked at so. Then, once, the validation part: 535 of 635 as before (6 wrong); bench/table.py --tables 10 as before
# (38, 44, 45 and 46 rolls of 50 announced, none wrong). Every look agreeing whatever its sureness read 4 more of the
# generated rolls' dice but one wrong (a yellow 2 taken for a 4 by all five looks, 0.60 sure on average). Each look
# taken only while all before it agree, it costs no time that shows: 0.99 of the time per generated 1280x720 frame read
# as a roll and 1.00 one die at a time (medians of the per-frame ratios, the two ways in turn on 60 frames; all five
# looks taken for every such die: 1.03 and 1.00, and bench/tracker.py's dim room, --light-level 0.06, 0.52 s at most
# from the last motion to the event counting the tracker's time rather than 0.46; scripts outside the repository).
AGREED_CONFIDENCE = 0.65
# That last look is also taken by a second classifier, deeper than the first (a second convolution in each of its
# last two stages) and trained longer (vision/training/train.py says how): alone it reads more real dice than the
# first and sends back more table rolls; the two averaged over their turns read more than the first.
# With the retrained pair (LEANING_SHARE 0.1 then), against the second classifier before it: on the dev tune part
# 84.9% of dice read rather than 83.3% (7 wrong values of 478 either way), 100 generated scenes as rolls 76.2%
# rather than 75.3% (3.0% wrong rather than 3.3%), bench/table.py's tables 0-39 calibrated and read as rolls 161 of
# 190 rather than 159, none wrong; with the first classifier as its own second, 83.9% and 161 (scripts outside the
# repository).


class FrameError(ValueError):
    """The frame is not something the reader can look at: says what is wrong with it."""


@dataclass(frozen=True)
class Candidate:
    x: float
    y: float
    extent: float  # largest side of the die's box, full-resolution pixels
    score: float  # detector heat at the peak (at least SURE_PEAK where the table changed: _with_table_changes)
    tiny: bool = False  # found by the full-resolution search of a small frame (TINY_FRAME)
    changed_place: bool = False  # a place where the table changed with no detector peak (_with_table_changes)
    first_look_alone: bool = False  # looked at first by one classifier of the two that look first (_first_looks)
    looks_disagreed: bool = False  # two of its rescaled looks were each sure of another value (_look_again)


def check_frame(frame) -> np.ndarray:
    """The frame itself when it is an 8-bit BGR image; FrameError saying what is wrong otherwise."""
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"a frame must be a numpy array, not {type(frame).__name__}")
    if frame.size == 0:
        raise FrameError(f"the frame is empty (shape {frame.shape})")
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise FrameError(
            f"the frame must be a colour image of shape (height, width, 3) in BGR order, not shape {frame.shape}"
            + (" (a single-channel image: the reader needs colour)" if frame.ndim == 2 or frame.shape[-1] == 1 else "")
        )
    if frame.dtype != np.uint8:
        raise FrameError(f"the frame must be 8-bit (uint8), not {frame.dtype}")
    if min(frame.shape[:2]) < 32:
        raise FrameError(f"the frame is too small to hold a readable die ({frame.shape[1]}x{frame.shape[0]})")
    return frame


class DiceReader:
    """Loads its networks once; `read` may then be called for every frame (one thread at a time)."""

    def __init__(self, models: Path = MODELS, doubt_side_faces: bool = True) -> None:
        """`doubt_side_faces` False reads without the side-face network (to cut its training crops)."""
        self.detector = _load(models / "detector.onnx")
        # The first OpenCV 5 wheels' new engine (their default) ran the classifier's batches of small crops slower
        # than their classic one, the detector's large levels faster: a tenth less time per generated 1280x720 frame
        # on one core with the classic one, the same readings (A/B in one process taking the two in turn, median
        # ratio 0.90; scripts outside the repository). OpenCV 5.1.0 has no ENGINE_CLASSIC (its ENGINE_OPENCV and
        # ENGINE_AUTO take the same time, crops and detector alike) and OpenCV 4 one engine: there the file is read as
        # any other. The first convolution, on three channels, takes over a third of the classifier's time with OpenCV
        # 5.1. Given its 3x3 neighbourhoods as 27 channels of a 1x1 convolution (the same sums), the two classifiers
        # took 0.91 and 0.94 of their time there, neighbourhoods made included, but 1.15 and 1.12 with OpenCV 4.6, the
        # Pi's: not taken. Padding the input to 4 or 8 channels changed neither (scripts outside the repository).
        # Quantized to 8 bits (onnxruntime's quantize_static: QOperator, per channel, convolutions only, calibrated on
        # what the networks are given while reading 150 dev training photos and 60 generated scenes), the classifiers
        # took 0.67 and 0.62 of their time with OpenCV 5.1, the detector 0.81, the other three about 0.9; OpenCV 4.6
        # took 0.93 to 1.2 (on x86). A generated 1280x720 roll then took 0.87 of its time, but the quantized detector
        # misses real dice (the validation part 494 read rather than 509); with the classifiers alone quantized 0.91,
        # and the validation part 509 read but 7 wrong rather than 6, the train part 14 rather than 12, the cocked
        # scenes as rolls 22 cocked dice given a value rather than 21: not taken.
        self.classifier = _load(models / "classifier.onnx", "ENGINE_CLASSIC")
        self.second_classifier = _load(models / "second-classifier.onnx", "ENGINE_CLASSIC")
        self.leaning = _load(models / "leaning.onnx", "ENGINE_CLASSIC")
        self.centring = _load(models / "centring.onnx", "ENGINE_CLASSIC")
        self.side_face = _load(models / "side-face.onnx", "ENGINE_CLASSIC") if doubt_side_faces else None
        self._empty_table: tuple = (None, None)  # (the calibration's image and the size compared at, its smoothed_lab)

    def read(self, frame: np.ndarray, calibration=None, dice_set: Mapping[str, int] | None = None) -> list[DieReading]:
        """Every die in the frame. `dice_set` (colour: count), when the frame shows one roll of a known set
        such as Qwixx's, lets the colours be named together (colour.name_as_set); without it, dice that look like one
        Qwixx roll are read as one (colour.like_one_set).

        A roll of a known set is first searched quickly, each level of the frame as it is, and read again after a
        thorough search (each level's mirror image too, see _peaks, and a small frame in TINY_SAMPLINGS) only
        when the dice read are not the set: what the thorough search finds that the quick one does not is a die
        missing from a roll. A roll takes 0.84 of the time of a thorough read at 1280x720 and 0.60 at 640x480 (medians
        of the per-frame ratios, the two ways in turn on 40 generated frames of each).
        Against the mirror in every roll: bench/vision.py's 200 generated scenes as rolls 1,057 dice of 1,200 read
        rather than 1,060, 6 wrong rather than 5, 121 images fully right rather than 119 (16 of the 200 read again);
        of its 100 scenes with a die cocked, 493 read rather than 483, 30 wrong rather than 35, cocked dice given a
        value 21 rather than 24; bench/table.py named together 90 rolls of 100 announced rather than 91 uncalibrated
        and 93 calibrated as before, a cocked roll announced 1 time in 100 either way; bench/tracker.py's rendered
        films 100-110 36 rolls of 44 rather than 35, none wrong. Against a small frame searched at full size in every
        roll too: of the 200 scenes at 640x480 read as rolls 1,022 dice read rather than 1,023, 11 wrong either way,
        and of the 100 with a die cocked 464 rather than 466, 43 wrong and cocked dice given a value 32 either way
        (scripts outside the repository)."""
        frame = check_frame(frame)
        if dice_set is not None:
            readings = self._read(frame, calibration, dice_set, thorough=False)
            if Counter(reading.colour for reading in readings) == Counter(dice_set):
                return readings
        return self._read(frame, calibration, dice_set, thorough=True)

    def _read(self, frame: np.ndarray, calibration, dice_set: Mapping[str, int] | None,
              thorough: bool) -> list[DieReading]:
        """`read`, after a `thorough` search for the dice or a quick one (see `places`)."""
        height, width = frame.shape[:2]
        if calibration is not None:
            calibration = calibration.scaled_to(width, height)
        candidates, hidden = self.places(frame, calibration, thorough, on_boards=dice_set is None)
        if not candidates:
            return []
        # With a calibration the networks see the frame white-balanced to its white dice: the classifier learned
        # dice under casts of a quarter per channel at most (vision.training.samples.photometric), and a warm lamp
        # casts more. Colours are measured, and the table compared, as the camera gives them. On bench/table.py's
        # tables 0-19, calibrated and read as rolls, 71 rolls of 90 announced rather than 65 (dice unreadable 11
        # rather than 20); on tables 20-39 76 of 100 rather than 77; cocked dice given a value 14 of 228 either way
        # (scripts outside the repository).
        seen = frame if calibration is None else calibration.white_balanced(frame)
        candidates, probabilities = self.classify_at_best_scale(seen, candidates, self._first_look(calibration),
                                                                in_photo=dice_set is None)
        candidates, probabilities = self._around_changed_places(seen, candidates, probabilities)
        gain = colour.light_gain(frame) if calibration is None else 1.0
        found = self._dice(frame, seen, candidates, probabilities, calibration, gain)
        found = [die for die in found if not _is_heap(die, found)]
        kept = [die for die in found if not _gives_way(die, found)]
        # A roll short of dice is searched again, each way only while it still is.
        wanted = 0 if dice_set is None else sum(dice_set.values())
        if len(kept) < wanted:
            kept += self._hidden_dice(frame, seen, hidden, kept, calibration, gain)
        if len(kept) < wanted:
            kept += self._hidden_dice(frame, seen, self._finer_peaks(frame, calibration, thorough), kept, calibration,
                                      gain)
        if len(kept) < wanted:
            kept += self._leaning_near_misses(frame, seen, candidates, probabilities, kept, calibration, gain,
                                              wanted - len(kept))
        # A photo whose dice, named one at a time, look like one Qwixx roll (colour.like_one_set) is read as one: its
        # touching dice doubted by the leaning network too, its colours named together. Against naming them together
        # alone: bench/vision.py's 200 generated scenes read one at a time 1,035 dice of 1,200 read rather than 1,008,
        # 9 wrong rather than 10; with a die cocked 469 rather than 431, 33 wrong rather than 40, cocked dice given a
        # value 25 of 100 rather than 32; with --conditions 40 201 more read and 1 fewer wrong in all (one more in dim
        # light and one more with coloured pips, three fewer with a die cocked); bench/table.py --tables 10 one die at
        # a time 39 rolls of 50 announced rather than 37 uncalibrated, 45 rather than 42 calibrated, none wrong, and
        # cocked rolls announced 0 and 1 times rather than 2 and 2; the dev photos as before.
        names = [reading.colour for _, _, reading, _ in kept]  # doubting a die leaves its colour
        looks_like_a_roll = dice_set is None and colour.like_one_set(names, QWIXX_ROLL)
        roll = dice_set is not None or looks_like_a_roll
        readings, cleared = self._doubt_touching_dice(seen, kept, roll, self._first_look(calibration))
        # A roll's colours, named together, weigh every die's rim (0.2 ms a die); a photo's only a bleached top's.
        if dice_set is not None and kept:
            names = colour.name_as_set(_with_rims(frame, kept, readings), names, dice_set, gain, calibration)
        elif looks_like_a_roll:
            names = colour.name_photo_as_set(_with_rims(frame, kept, readings), names, QWIXX_ROLL, gain, calibration)
        elif calibration is None:
            names = [colour.name_by_rim(colour.measure_rim(frame, reading.center, reading.corners), name, gain)
                     if colour.may_be_bleached(face, name, gain) else name
                     for (*_, face), reading, name in zip(kept, readings, names)]
        readings = [replace(reading, colour=name) for reading, name in zip(readings, names)]
        # A photo's large touching die the leaning network clears is still left to the looks before: the chroma look
        # read the dev validation part's translucent red die showing a numeral 3 as a 1.
        readings = self._read_lone_dice(seen, [die[0] for die in kept], readings, cleared if roll else frozenset())
        readings = self._doubt_side_faces(seen, readings)
        # A die only the small frame's search found is reported only with a value (see TINY_SLACK), also where a
        # doubt after _dice (touching, side faces) took it.
        return [reading for reading, die in zip(readings, kept) if reading.value is not None or not die[0].tiny]

    # -- 1. finding dice -------------------------------------------------------------------------

    def levels(self, frame_shape, calibration) -> list[float]:
        """Scales at which to run the detector so that every die size looked for lands in its band."""
        short_side = min(frame_shape[:2])
        low, high = geometry.DETECTOR_BAND
        if calibration is not None:
            die_size = calibration.scaled_to(frame_shape[1], frame_shape[0]).die_size
            return [min(math.sqrt(low * high) / (die_size * TURNED_BOX), 1.0)]
        smallest = _smallest_die(short_side)
        largest = LARGEST_DIE_SHARE * short_side
        scales = [min(SMALLEST_AT / smallest, 1.0)]
        while largest * scales[-1] > high and short_side * scales[-1] / LEVEL_STEP >= 24:
            scales.append(scales[-1] / LEVEL_STEP)
        return scales

    def find(self, frame: np.ndarray, calibration=None) -> list[Candidate]:
        """The places worth a look: the detector's peaks, strongest first, one per place (see LARGER_DIE)."""
        return self.places(frame, calibration)[0]

    def places(self, frame: np.ndarray, calibration=None, thorough: bool = True,
               on_boards: bool = False) -> tuple[list[Candidate], list[Candidate]]:
        """What `find` gives, and the peaks it leaves out as another reading of a stronger one's place or past
        MAX_CANDIDATES (see _hidden_dice). A `thorough` search also looks at each level's mirror image, and at a small
        frame (TINY_FRAME) in TINY_SAMPLINGS; `on_boards` keeps the places of dice that may lie on a board
        (BOARD_SCALE)."""
        peaks = self._peaks_and_changes(frame, calibration, thorough)
        board_scale = BOARD_SCALE if on_boards else math.inf
        candidates = _suppress_duplicates(peaks, self._smallest(frame.shape, calibration), board_scale)[:MAX_CANDIDATES]
        kept = set(map(id, candidates))
        return candidates, [peak for peak in peaks if id(peak) not in kept]

    @staticmethod
    def _smallest(frame_shape, calibration) -> float:
        # With a calibration the one level shows dice, not their pips.
        return 0.0 if calibration is not None else _smallest_die(min(frame_shape[:2]))

    def _peaks_and_changes(self, frame: np.ndarray, calibration=None, thorough: bool = True) -> list[Candidate]:
        """Every peak of the detector at each of its levels, and where the calibration's empty table changed (a
        `thorough` search as `places` says)."""
        height, width = frame.shape[:2]
        scales = self.levels(frame.shape, calibration)
        found: list[Candidate] = []
        for index, level in enumerate(_pyramid(frame, scales)):
            # The size output is only roughly right: bands overlap, duplicates are merged below.
            low = 0.0 if index == 0 or calibration is not None else geometry.DETECTOR_BAND[0] / BAND_SLACK
            high = math.inf if index == len(scales) - 1 or calibration is not None else geometry.DETECTOR_BAND[1] * BAND_SLACK
            found += self._level_peaks(*level, low, high, thorough)
        if calibration is not None and calibration.empty_table is not None:
            found = self._with_table_changes(frame, calibration, found)
        if thorough and calibration is None and height * width <= TINY_FRAME:
            largest = self._smallest(frame.shape, calibration) * TINY_SLACK
            for zoom, cut in TINY_SAMPLINGS:
                level, mapping = next(_pyramid(frame[cut:, cut:], [zoom]))
                found += [replace(c, x=c.x + cut, y=c.y + cut, tiny=True)
                          for c in self._level_peaks(level, mapping, high=largest * zoom)]
        return found

    def _finer_peaks(self, frame: np.ndarray, calibration=None, mirrored: bool = True) -> list[Candidate]:
        """The detector's peaks on the frame FINER times as large as its first level (see _hidden_dice)."""
        scale = min(self.levels(frame.shape, calibration)[0] * FINER, 1.0)
        return self._level_peaks(*next(_pyramid(frame, [scale])), mirrored=mirrored)

    def _level_peaks(self, level: np.ndarray, mapping: tuple, low: float = 0.0,
                     high: float = math.inf, mirrored: bool = True) -> list[Candidate]:
        """The detector's peaks on a level of the frame (see _pyramid) of extent `low` to `high` there, in frame
        pixels; on its mirror image too if `mirrored`."""
        ax, bx, ay, by = mapping
        x, y, extent, score = self._peaks(level, mirrored)
        keep = (extent >= low) & (extent < high)
        return [Candidate(*c) for c in zip(x[keep] * ax + bx, y[keep] * ay + by,
                                           extent[keep] * math.sqrt(ax * ay), score[keep])]

    def _with_table_changes(self, frame: np.ndarray, calibration, found: list[Candidate]) -> list[Candidate]:
        """`found`, and candidates of a die's size where the table changed and no candidate found there lies within a
        die (see CHANGED_DEPTH). Each lying where the table changed is given at least SURE_PEAK: worth more looks
        whatever the first says."""
        height, width = frame.shape[:2]
        scale = min(1.0, EMPTY_TABLE_WIDTH / width)
        size = (round(width * scale), max(1, round(height * scale)))
        if self._empty_table[0] != (calibration.empty_table, size):
            self._empty_table = ((calibration.empty_table, size), smoothed_lab(calibration.empty_table_image(size)))
        small = smoothed_lab(cv2.resize(frame, size, interpolation=cv2.INTER_AREA))
        changed = where_changed(self._empty_table[1], small)
        changed = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        # Pixel i of the small image lies on (i + 0.5) / scale - 0.5 of the frame.
        die = calibration.die_size
        places = [((x + 0.5) / scale - 0.5, (y + 0.5) / scale - 0.5) for x, y in _changed_places(changed, die * scale)]

        def on_change(c: Candidate) -> bool:
            x, y = (round((v + 0.5) * scale - 0.5) for v in (c.x, c.y))
            return bool(changed[min(max(y, 0), size[1] - 1), min(max(x, 0), size[0] - 1)])

        # A peak on the unchanged table is not the die that changed it: on a striped cloth one between two touching
        # dice, which the classifier then calls no die, had hidden both. bench/table.py's product way on its tables
        # 0-19: 78 rolls of 90 announced rather than 76 (dice missing 7 rather than 12) while calibrations took the
        # dice a fifth too large; since they take their true size (calibration.learn), tables 0-79 330 of 380 rather
        # than 329, cocked rolls announced 9 of 456 rather than 10 (scripts outside the repository).
        changed_here = [on_change(c) for c in found]
        found = [replace(c, score=max(c.score, SURE_PEAK)) if here else c for c, here in zip(found, changed_here)]
        found_on_change = [c for c, here in zip(found, changed_here) if here]
        return found + [Candidate(x, y, die * TURNED_BOX, SURE_PEAK, changed_place=True) for x, y in places
                        if all(math.hypot(x - c.x, y - c.y) > die for c in found_on_change)]

    def _peaks(self, level: np.ndarray, mirrored: bool = True):
        """Centres (x, y), extents and heat of the strongest local maxima of the heat-maps of the level and, if
        `mirrored`, of its mirror image, level pixels: a die either finds is a candidate (two readings of one place
        are merged later).

        The detector is small enough to miss a die one way round and find it the other. Against the level alone
        (the dev photos' labels as corrected by vision.training.devset.LABEL_FIXES): the dev validation part 509
        dice of 635 read rather than 503, 5 wrong rather than 8 (64 false dice rather than 57); the tune part 414
        of 478 rather than 413, 3 wrong rather than 4; bench/vision.py's 200 generated scenes read one at a time
        935 of 1,200 rather than 919 (missed 53 rather than 69), as rolls 1,059 rather than 1,057, 5 wrong rather
        than 7; of its 100 scenes with a die cocked, 25 cocked dice given a value rather than 23; bench/table.py's
        product way (calibrated, named together) 91 rolls of 100 announced rather than 90 and 1 cocked roll of 100
        rather than 2, uncalibrated 90 rather than 89 and 1 rather than 0. Mirroring every level but the first
        (the costly one) read no more of the generated scenes. Left to right, not top to bottom: turned upside down
        a camera's lean shows the dice's sides where the detector never saw them (validation 504 read, 9 wrong), and
        a level shifted by half the detector's stride instead read 505 (8 wrong). It costs 25% more time per
        1280x720 frame, 35% at 640x480 (medians of the ratios, the two ways in turn on 40 generated frames; script
        outside the repository); bench/vision.py's median per frame, each way in a run of its own, 43.2 ms rather
        than 32.8 at 1280x720, 53.8 rather than 41.1 at 640x480."""
        if not mirrored:
            self.detector.setInput(_blob([level]))
            return _heat_peaks(self.detector.forward()[0])
        self.detector.setInput(_and_mirrored(_blob([level])))
        seen, in_mirror = (_heat_peaks(out) for out in self.detector.forward())
        x, y, extent, score = (np.concatenate(pair) for pair in zip(seen, in_mirror))
        x[len(seen[0]):] = level.shape[1] - 1 - x[len(seen[0]):]
        return x, y, extent, score

    def centre(self, frame: np.ndarray, candidates: list[Candidate]) -> list[Candidate]:
        """Each candidate moved onto the top face of the die it shows and given that face's extent, as the
        centring network (models/centring.onnx) sees it. One forward pass for all of them."""
        if not candidates:
            return []
        crops = _turned_crops(frame, candidates, geometry.CENTRING_MARGIN, geometry.CENTRING_SIZE, range(1))
        self.centring.setInput(crops)
        return [replace(c, x=c.x + dx * c.extent, y=c.y + dy * c.extent, extent=c.extent * 2.0**log2_scale)
                for c, (dx, dy, log2_scale) in zip(candidates, self.centring.forward().tolist())]

    # -- 2. reading each die ---------------------------------------------------------------------

    def _first_look(self, calibration) -> tuple:
        """The classifiers whose average takes the first look at every candidate: without a calibration both.

        The second classifier reads more real dice than the first, and the first more table rolls (see the second
        classifier above). Their average at the first look, which decides what is a die and what is looked at
        again, against the first alone (with the second classifier of vision/training/train.py's DATA6 run):
        the dev validation part 500 dice of 635 read rather than 492, 11 wrong rather than 12 (tune part 400 and 6
        wrong rather than 401 and 7); bench/vision.py's 200 generated scenes as rolls 1,026 read rather than 1,022,
        10 wrong rather than 15; its cocked dice given a value 23 of 100 rather than 24; bench/table.py named
        together uncalibrated 87 rolls of 100 rather than 88. With a calibration the first alone: averaged there too,
        the calibrated rolls announced were 88 rather than 90 or 91 (more dice it doubted touching another). 11% more
        time per uncalibrated 1280x720 frame (25.5 ms rather than 22.9, median; scripts outside the repository).
        The turns in which a die touching another is looked at (_doubt_touching_dice) complete its first look by the
        same classifiers: the tune part 406 dice read rather than 400 (6 wrong), the validation part 502 rather than
        500 (11 wrong); bench/vision.py's cocked dice, read one at a time, given a value 34 of 100 rather than 36, and
        bench/table.py's cocked rolls, uncalibrated one die at a time, announced 1 of 100 rather than 4; the rest the
        same, for 3% more time."""
        return (self.classifier,) if calibration is not None else (self.classifier, self.second_classifier)

    def classify_at_best_scale(self, frame: np.ndarray, candidates: list[Candidate], first_look: tuple = (),
                               in_photo: bool = False):
        """The candidates and their class probabilities (see classify). The average of the `first_look` classifiers
        (the classifier alone if none are given) takes the first look at each candidate. The detector's size is often a
        fifth off, and its centre a tenth: each candidate is also looked at where the centring network places
        it (even one the first look is VALUE_CONFIDENCE sure of: sparing those that look, 0.97 of a roll's time,
        bench/vision.py's 200 generated scenes as rolls read 1,053 dice rather than 1,057, 10 wrong rather than 6, and
        the dev validation part 506 rather than 509; scripts outside the repository), and a die the classifier is
        still unsure of is looked at again with its extent RESCALED (on the dev tune part: a tenth more dice read, a
        few more wrong, offset by a higher VALUE_CONFIDENCE), then, if still unsure, from centres SHIFTed by a share of
        its extent. It keeps the look at which the classifier is
        surest of a value; a shifted look must be SHIFTED_CONFIDENCE sure. A die still unsure is last seen in
        TURNED_VIEWS turns by both classifiers, which _reading weighs by TURNED_CONFIDENCE, and if still unread darkened
        (DARKENING), then as a white die (_as_a_white_die), then, `in_photo`, by its red channel (_by_red, then
        _red_light).

        In a photo (`in_photo`), where a rescaled or shifted look moved the die, its turns are also taken where the
        centring network placed it (_turned_as_placed), and kept when surer of the same value: one view at 1.3 times a
        large die's extent can be surest while its turns there are not (a red six with gold pips seen obliquely, 0.9
        sure in one view at 1.3 times, 0.63 in its turns, 0.83 in its turns as placed). Against the reader without it:
        the dev validation part 518 dice of 635 read rather than 517, the tune part 421 of 478 rather than 417, the
        train part 1,479 rather than 1,474, the duplicates 287 rather than 285, the colour-labelled photos 185 rather
        than 184, as many wrong (6, 3, 12, 3 and 5); bench/vision.py's 200 generated scenes one at a time 1,038 rather
        than 1,036 (9 wrong), with a die cocked 478 rather than 477 (33 wrong, 25 cocked dice given a value either
        way); but one more false die with a value, among the duplicates (a gadget's green lights at a frame's edge read
        as a 2). That look names a value; it does not make a die of a candidate not yet taken for one: it did so for
        two more false dice in the validation part and the duplicates, and 4 more dice read of --conditions 40 one die
        at a time (as many wrong). Taken whatever value it is sure of: the validation part 517 read, the train part
        1,478. Not in a roll: there it read few more dice (the 200 generated scenes as rolls 1,083 rather than 1,082;
        bench/tracker.py --films 11 47 rolls of 53 right rather than 46) and gave a value to more dice resting cocked,
        which the leaning network had found flat (those scenes with a die cocked 22 of 100 rather than 21;
        bench/photoreal.py's Cycles frames with a die cocked 10 of 30 rather than 8). With the looks by the red channel
        (_by_red, _red_light), the looks a photo gained in stop 60 read bench/vision.py --conditions 40 one die at a
        time 5,655 dice rather than 5,641 but 129 wrong rather than 126 (one more each oblique, on felt, shaken and with
        dark pips, one fewer in clusters), and take 1.00 of the time per generated 1280x720 frame read one die at a
        time and 1.02 at 640x480 (medians of 30 frames, twice each way, in turn).

        A die whose rescaled looks disagreed (_look_again) is looked at from beside and in its turns too,
        however unsure the disagreement left it, and read only VALUE_CONFIDENCE sure (`looks_disagreed`): a look
        at 1.3 times an extent the detector already took too large, where the die spans less than half the crop,
        can be sure of a wrong value where the others are sure of the right one (bench/tracker.py's film 106: a
        yellow three with the lamp mirrored in its top, a 1 at 1.3 times the detector's extent, is a 3 0.97 sure
        in its turns). Against leaving such a die unread: bench/tracker.py's films 46 rolls of 53 right rather
        than 45; the dev tune part 415 dice read rather than 414 and the train part 1,464 rather than 1,461, as
        many wrong (3 and 12); bench/vision.py's 200 generated scenes as rolls 1,058 rather than 1,057 (6 wrong
        either way); the validation part (509 read, 6 wrong), the duplicates, the colour-labelled photos, the
        generated scenes one at a time and those with a die cocked, and bench/table.py's tables 0-9 (every way)
        as before. Read TURNED_CONFIDENCE sure as other dice seen in their turns, one more die of the validation
        part was read, and wrong (a black one read as 2; scripts outside the repository)."""
        candidates, probabilities = self._first_looks(frame, candidates, first_look)
        looked_at = [k for k, probs in enumerate(probabilities) if _may_be_a_die(candidates[k], probs)]
        centred = self.centre(frame, [candidates[k] for k in looked_at])
        for k, moved, probs in zip(looked_at, centred, self.classify(frame, centred)):
            if _sureness(probs) >= _sureness(probabilities[k]):
                candidates[k], probabilities[k] = moved, probs
        unsure = [k for k in looked_at if _sureness(probabilities[k]) < VALUE_CONFIDENCE]
        placed = list(candidates)
        rescaled = [lambda c, factor=factor: replace(c, extent=c.extent * factor) for factor in RESCALED]
        for k in self._look_again(frame, candidates, probabilities, unsure, rescaled, 0.0):
            candidates[k] = replace(candidates[k], looks_disagreed=True)
        still_unsure = [k for k in unsure if SHIFT_FROM <= _sureness(probabilities[k]) < VALUE_CONFIDENCE
                        or candidates[k].looks_disagreed]
        shifted = [lambda c, dx=dx, dy=dy: replace(c, x=c.x + dx * c.extent, y=c.y + dy * c.extent)
                   for dx in (-SHIFT, 0.0, SHIFT) for dy in (-SHIFT, 0.0, SHIFT) if dx or dy]
        self._look_again(frame, candidates, probabilities, still_unsure, shifted, SHIFTED_CONFIDENCE)
        turned = [k for k in still_unsure if _value_sureness(probabilities[k]) < VALUE_CONFIDENCE]
        if turned:
            last = [candidates[k] for k in turned]
            in_turns = self._in_all_turns(frame, last, [probabilities[k] for k in turned])
            seconded = self.classify(frame, last, range(TURNED_VIEWS), (self.second_classifier,))
            for k, probs, second in zip(turned, in_turns, seconded):
                probabilities[k] = np.concatenate([probs, second])
            recoloured = ((_darkened, TURNED_CONFIDENCE), (_as_a_white_die, AS_WHITE_CONFIDENCE))
            if in_photo:
                self._turned_as_placed(frame, candidates, probabilities, turned, placed)
                recoloured += ((_by_red, AS_WHITE_CONFIDENCE), (_red_light, AS_WHITE_CONFIDENCE))
            for recolour, least in recoloured:
                unread = [k for k in turned if _value_sureness(probabilities[k]) < TURNED_CONFIDENCE]
                if not unread:
                    break
                looks = self.classify(frame, [candidates[k] for k in unread], range(TURNED_VIEWS),
                                      (self.classifier, self.second_classifier), recolour=recolour)
                for k, look in zip(unread, looks):
                    look = np.concatenate([look, look])  # weighed as the two classifiers' turns are
                    if _value_sureness(look) >= least:
                        probabilities[k] = look
        return candidates, probabilities

    def _turned_as_placed(self, frame: np.ndarray, candidates: list[Candidate], probabilities: list,
                          which: list[int], placed: list[Candidate]) -> None:
        """Each candidate in `which` that a rescaled or shifted look moved from where the centring network `placed`
        it is looked at there in its turns by both classifiers, and moved back when that look is surer of the same
        value and the candidate is already taken for a die (DIE_PROBABILITY; see classify_at_best_scale)."""
        back = [k for k in which if (candidates[k].x, candidates[k].y, candidates[k].extent)
                != (placed[k].x, placed[k].y, placed[k].extent)]
        looks = zip(self.classify(frame, [placed[k] for k in back], range(TURNED_VIEWS)),
                    self.classify(frame, [placed[k] for k in back], range(TURNED_VIEWS), (self.second_classifier,)))
        for k, (first, second) in zip(back, looks):
            look = np.concatenate([first, second])
            if (_value_sureness(look) > _value_sureness(probabilities[k])
                    and _likeliest_value(look) == _likeliest_value(probabilities[k])
                    and _die_probability(probabilities[k]) >= DIE_PROBABILITY):
                candidates[k] = replace(placed[k], looks_disagreed=candidates[k].looks_disagreed)
                probabilities[k] = look

    def _first_looks(self, frame: np.ndarray, candidates: list[Candidate], networks: tuple):
        """The candidates and each one's first look (as `classify` gives it) by the average of `networks`, or the
        classifier alone. Where a second network joins the first, it looks only at what their average may still take
        for a die (DIE_PROBABILITY) and what is SURE_PEAK, as _may_be_a_die asks: the rest keep the first network's
        look, which then decides nothing, and are marked `first_look_alone` (see _complete_first_looks). It spares the
        second network 0.62 of its first-look crops in 40 generated 1280x720 frames read as rolls: 0.96 of the time in
        all, 0.99 the median of the per-frame ratios (the rest of a frame's looks are the same); one die at a time 0.97
        and 0.99. bench/vision.py's figures are the same to the last die (scripts outside the repository)."""
        if len(networks) != 2:
            return list(candidates), list(self.classify(frame, candidates, networks=networks))
        looks = list(self.classify(frame, candidates, networks=networks[:1]))
        seconded = [c.score >= SURE_PEAK or _die_probability(probs) >= 2 * DIE_PROBABILITY - 1
                    for c, probs in zip(candidates, looks)]
        second = iter(self.classify(frame, [c for c, both in zip(candidates, seconded) if both], networks=networks[1:]))
        looks = [(probs + next(second)) / 2 if both else probs for probs, both in zip(looks, seconded)]
        return [c if both else replace(c, first_look_alone=True) for c, both in zip(candidates, seconded)], looks

    def _complete_first_looks(self, frame: np.ndarray, candidates: list[Candidate], probabilities: list,
                              networks: tuple) -> list:
        """`probabilities` with the look of each candidate `first_look_alone` completed by the second of `networks`:
        for what asks the first look's word on candidates taken for no die."""
        alone = [k for k, c in enumerate(candidates) if c.first_look_alone]
        complete = list(probabilities)
        for k, second in zip(alone, self.classify(frame, [candidates[k] for k in alone], networks=networks[1:])):
            complete[k] = (probabilities[k] + second) / 2
        return complete

    def _around_changed_places(self, frame, candidates: list[Candidate], probabilities: list):
        """Each changed place the classifier finds no die is looked at again from AROUND of its extent away in eight
        directions, and moved to the look surest of a value among those that find a die where no other die lies;
        those moved are then looked at as classify_at_best_scale looks."""
        lost = [k for k, (c, probs) in enumerate(zip(candidates, probabilities))
                if c.changed_place and _die_probability(probs) < DIE_PROBABILITY]
        if not lost:
            return candidates, probabilities
        directions = [(math.cos(a), math.sin(a)) for a in np.arange(8) * math.pi / 4]
        moved = [replace(candidates[k], x=candidates[k].x + dx * AROUND * candidates[k].extent,
                         y=candidates[k].y + dy * AROUND * candidates[k].extent) for k in lost for dx, dy in directions]
        looks = self.classify(frame, moved).reshape(len(lost), len(directions), VIEWS, CLASS_COUNT)
        dice = [c for c, probs in zip(candidates, probabilities) if _die_probability(probs) >= DIE_PROBABILITY]
        candidates, probabilities = list(candidates), list(probabilities)
        chosen = []
        for index, k in enumerate(lost):
            around = zip(moved[index * len(directions):(index + 1) * len(directions)], looks[index])
            options = [(c, p) for c, p in around if _die_probability(p) >= DIE_PROBABILITY and all(
                math.hypot(c.x - o.x, c.y - o.y) > 0.5 * max(c.extent, o.extent) for o in dice)]
            if options:
                candidates[k] = max(options, key=lambda option: _sureness(option[1]))[0]
                chosen.append(k)
        if chosen:
            again, probs = self.classify_at_best_scale(frame, [candidates[k] for k in chosen])
            for k, c, p in zip(chosen, again, probs):
                candidates[k], probabilities[k] = c, p
        return candidates, probabilities

    def _in_all_turns(self, frame: np.ndarray, candidates: list[Candidate], probabilities: list[np.ndarray],
                      networks: tuple = ()):
        """Each candidate's probabilities (as `classify` gives them) completed to all TURNED_VIEWS quarter
        turns by `networks` (as `classify` takes them): only the turns not classified yet are."""
        todo = [k for k, probs in enumerate(probabilities) if len(probs) < TURNED_VIEWS]
        complete = list(probabilities)
        if todo:
            more = self.classify(frame, [candidates[k] for k in todo], range(VIEWS, TURNED_VIEWS), networks)
            for k, extra in zip(todo, more):
                complete[k] = np.concatenate([probabilities[k], extra])
        return complete

    def _look_again(self, frame, candidates: list[Candidate], probabilities: np.ndarray, which: list[int],
                    moves, least: float) -> list[int]:
        """Classifies each candidate in `which` again as each of `moves` changes it, and keeps in place the look the
        classifier is surest of a value at, if it is surer than before and at least `least`. Where a look and the one
        kept so far are each sure of another value (_disagree), the two are averaged, which leaves the die unsure, and
        its other looks of these `moves` are not taken: neither value is trusted (bench/tracker.py's film 106: a yellow
        three read 3 at 0.8 times the detector's extent, 0.91 sure, and 1 at 1.3 times, 0.94 sure, was announced a 1).
        Against the reader without it, the dev validation part 502 dice of 635 read rather than 504 and 9 wrong rather
        than 10, the tune part 411 of 478 rather than 410 (6 wrong either way), the train part 1,433 rather than 1,448
        (13 wrong either way), the colour-labelled photos 179 of 198 and 10 wrong rather than 11; bench/vision.py's 200
        generated scenes as rolls 1,057 of 1,200 rather than 1,059 (7 wrong either way), with a die cocked 487 as before
        (cocked dice given a value 23 of 100 either way). Returns the candidates (indices) whose looks disagreed."""
        if not which:
            return []
        disagreed = []
        again = [move(candidates[k]) for move in moves for k in which]
        looks = self.classify(frame, again).reshape(len(moves), len(which), VIEWS, CLASS_COUNT)
        for index, k in enumerate(which):
            for moved, probs in zip(again[index::len(which)], looks[:, index]):
                sure = _sureness(probs)
                if _disagree(probs, probabilities[k]):
                    probabilities[k] = (probabilities[k] + probs) / 2
                    disagreed.append(k)
                    break
                if sure > _sureness(probabilities[k]) and sure >= least:
                    candidates[k], probabilities[k] = moved, probs
        return disagreed

    def classify(self, frame: np.ndarray, candidates: list[Candidate], turns: range = range(VIEWS),
                 networks: tuple = (), recolour: Callable[[np.ndarray], np.ndarray] | None = None) -> np.ndarray:
        """Class probabilities (not a die, 1-6, unreadable) per candidate for its crop turned by each of
        `turns` quarter turns, (n, len(turns), CLASS_COUNT), averaged over `networks` (the classifier alone if none
        are given), each crop `recolour`ed when given. One forward pass of each for all of them."""
        if not candidates:
            return np.zeros((0, len(turns), CLASS_COUNT))
        crops = _turned_crops(frame, candidates, geometry.CROP_MARGIN, geometry.CROP_SIZE, turns, recolour)
        probabilities = []
        for each in networks or (self.classifier,):
            each.setInput(crops)
            logits = each.forward()
            if logits.shape[1] != CLASS_COUNT:
                raise ValueError(f"the classifier gives {logits.shape[1]} outputs, the reader expects {CLASS_COUNT}")
            probabilities.append(_softmax(logits))
        return np.mean(probabilities, axis=0).reshape(len(turns), len(candidates), CLASS_COUNT).transpose(1, 0, 2)

    def _dice(self, frame, seen, candidates: list[Candidate], probabilities: list, calibration,
              gain: float) -> list[tuple]:
        """(candidate, its probabilities, reading, face) of each candidate the classifier takes for a die, each read
        where the centring network places it: the look the classifier was surest at may be larger than the die (a
        look 1.3 times its size took in the orange table around a green die, named "other")."""
        dice = [(candidate, probs) for candidate, probs in zip(candidates, probabilities)
                if _die_probability(probs) >= DIE_PROBABILITY]
        found = []
        for candidate, (_, probs) in zip(self.centre(seen, [candidate for candidate, _ in dice]), dice):
            read = self._reading(frame, candidate, probs, calibration, gain)
            if read is not None and not (candidate.tiny and read[0].value is None):
                found.append((candidate, probs, *read))
        return self._without_tiny_doubts(seen, found)

    def _without_tiny_doubts(self, frame, found: list[tuple]) -> list[tuple]:
        """`found` (as _dice gives it) without each die only the small frame's search found (`tiny`) that a quarter
        turn of its crop, seen by both classifiers, takes TINY_DOUBT sure for another value (see TINY_DOUBT)."""
        tiny = [k for k, die in enumerate(found) if die[0].tiny]
        if not tiny:
            return found
        turns = self.classify(frame, [found[k][0] for k in tiny], range(TURNED_VIEWS),
                              (self.classifier, self.second_classifier))
        doubted = {k for k, looks in zip(tiny, turns) if any(
            _value_sureness(look[None]) >= TINY_DOUBT and _likeliest_value(look[None]) != found[k][2].value
            for look in looks)}
        return [die for k, die in enumerate(found) if k not in doubted]

    def _hidden_dice(self, frame, seen, hidden: list[Candidate], dice: list[tuple], calibration,
                     gain: float) -> list[tuple]:
        """Dice (as `read` finds them) among the `hidden` peaks (`places`), each more than ONE_DIE edges from every die
        in `dice` and from one another.

        A stronger peak within half a die hides a die: one on two touching dice, read as one of them, or a false one
        on a pattern or a heap, read as no die. Of the dice missed in bench/vision.py's 200 generated scenes read as
        rolls, 15 had such a peak and 43 none near. Looking at the hidden peaks in a roll short of dice: 948 dice read
        right rather than 934 (missed 52 rather than 68, wrong 16 rather than 18), with a die cocked 479 rather than
        472 (cocked dice given a value 3 of 100 either way); bench/table.py uncalibrated, named together, 81 rolls of
        100 announced rather than 80, calibrated 87 as before, none wrong; per roll read 1.7% more time (median of
        the ratios; mean 6.6%). In every photo they would read 3 more of the dev validation part's 635 dice, and
        find 15 more false dice, for 6 ms more a 1280x720 frame (scripts outside the repository)."""
        readings = [die[2] for die in dice]
        hidden = [c for c in hidden if _clear_of((c.x, c.y), 0.0, readings)]
        hidden = _suppress_duplicates(hidden, self._smallest(frame.shape, calibration))[:MAX_CANDIDATES]
        if not hidden:
            return []
        more: list[tuple] = []
        looked_at = self.classify_at_best_scale(seen, hidden, self._first_look(calibration))
        for die in self._dice(frame, seen, *looked_at, calibration, gain):
            if _clear_of(die[2].center, die[2].edge, readings + [other[2] for other in more]):
                more.append(die)
        return more

    def _leaning_near_misses(self, frame, seen, candidates: list[Candidate], probabilities: list, dice: list[tuple],
                             calibration, gain: float, missing: int) -> list[tuple]:
        """Up to `missing` dice (as `read` finds them) the classifier took NEAR_MISS but not DIE_PROBABILITY for dice,
        each touching one of `dice` and lying on none, read as cocked."""
        probabilities = self._complete_first_looks(seen, candidates, probabilities, self._first_look(calibration))
        misses = [(c, probs) for c, probs in zip(candidates, probabilities)
                  if NEAR_MISS <= _die_probability(probs) < DIE_PROBABILITY]
        near = []
        for candidate, (_, probs) in zip(self.centre(seen, [c for c, _ in misses]), misses):
            if len(near) == missing:
                break
            reading, face = self._reading(frame, candidate, probs, calibration, gain, "cocked")
            others = [die[2] for die in dice + near]
            if any(_touching(reading, other) for other in others) and _clear_of(reading.center, reading.edge, others):
                near.append((candidate, probs, reading, face))
        return near

    def _reading(self, frame, candidate: Candidate, probs: np.ndarray, calibration,
                 gain: float, problem: str | None = None) -> tuple[DieReading, colour.Face] | None:
        """The die's reading and its face, or None when the classifier does not take it for a die; `problem`, when
        given, is taken as the die's and it is read whatever the classifier says."""
        mean = probs.mean(axis=0)
        die_probability = _die_probability(probs)
        if die_probability < DIE_PROBABILITY and problem is None:
            return None
        face = colour.measure_face(frame, candidate.x, candidate.y, candidate.extent)
        sure = _value_sureness(probs)
        corners, center = _top_face(frame, candidate)
        problem = problem or self._problem(frame, candidate, corners, mean)
        # Seen in all its turns (classify_at_best_scale's last look), a die is read TURNED_CONFIDENCE sure, but one
        # whose looks disagreed only as sure as a die seen once.
        turned = len(probs) > TURNED_VIEWS and not candidate.looks_disagreed
        if problem is None and sure < (TURNED_CONFIDENCE if turned else VALUE_CONFIDENCE):
            problem = "blurred" if _is_blurred(frame, candidate) else "occluded"
        if problem is None:
            value, confidence = _likeliest_value(probs), die_probability * sure
        else:
            value, confidence = None, die_probability * (mean[UNREADABLE] if problem == "cocked" else 1.0 - sure)
        reading = DieReading(
            colour=colour.name_colour(face, calibration, gain),
            value=value,
            confidence=float(np.clip(confidence, 0.0, 1.0)),
            center=center,
            corners=corners,
            problem=problem,
        )
        return reading, face

    def _problem(self, frame, candidate: Candidate, corners, mean: np.ndarray) -> str | None:
        """What stops the die being read whatever the classifier says: cut off (its box or its top face's outline,
        `corners`, past the border), too small, blurred, cocked."""
        height, width = frame.shape[:2]
        half = candidate.extent / 2 * (1 - 2 * EDGE_MARGIN)
        if (candidate.x - half < 0 or candidate.y - half < 0
                or candidate.x + half > width or candidate.y + half > height or _leaves_frame(frame, corners)):
            return "edge"
        if candidate.extent < READABLE_EXTENT:
            return "small"
        if mean[UNREADABLE] > max(mean[1:7]):
            return "blurred" if _is_blurred(frame, candidate) else "cocked"
        return None

    def _doubt_touching_dice(self, frame, dice: list[tuple], roll: bool = False,
                             first_look: tuple = ()) -> tuple[list[DieReading], set[int]]:
        """The readings of `dice` (as `read` finds them), and the touching dice the leaning network clears alone (see
        below: read as dice touching none). Each die given a value that touches another is looked at in its quarter
        turns and doubted if it may be leaning (see TOUCHING), unless the leaning network finds it and every die it
        touches flat; in a `roll` of a known set, unless it finds the die itself flat, also when it finds
        it ROLL_LEANING, and from ROLL_LEANING_SHARE of "unreadable" in a turn rather than LEANING_SHARE. A
        LARGE_DIE_EXTENT die is judged by the network alone where it is sure: read when found flat, doubted when found
        LARGE_LEANING. The turns are taken by the `first_look` classifiers (see _first_look). In a roll, a touching die
        left unread as "occluded" that the network finds ROLL_LEANING is called cocked: the table then says why to
        re-roll it (the test film rolls-1's yellow die leaning on the red one, which both classifiers together take
        for a die they cannot read, where the first alone had found it too little like a die: _leaning_near_misses)."""
        readings = [reading for _, _, reading, _ in dice]
        near = [[j for j, other in enumerate(readings) if _touching(reading, other)] for reading in readings]
        asked = [k for k in range(len(readings)) if near[k]]
        leaning = dict(zip(asked, self.leaning_probability(frame, [dice[k][0] for k in asked])))
        flat = {k for k, probability in leaning.items() if probability < FLAT_LEANING}
        large = {k for k in asked if dice[k][0].extent >= LARGE_DIE_EXTENT}
        cleared_alone = flat if roll else flat & large
        touching = [k for k, reading in enumerate(readings)
                    if reading.value is not None and near[k] and not {k, *near[k]} <= flat and k not in cleared_alone]
        in_turns = self._in_all_turns(frame, [dice[k][0] for k in touching], [dice[k][1] for k in touching], first_look)
        doubted = list(readings)
        for k in asked:
            if roll and readings[k].problem == "occluded" and leaning[k] >= ROLL_LEANING:
                doubted[k] = replace(readings[k], problem="cocked")
        for k, turns in zip(touching, in_turns):
            tilted = float((turns[:, UNREADABLE] / np.maximum(1.0 - turns[:, NOT_A_DIE], 1e-6)).max())
            found_leaning = (roll and leaning[k] >= ROLL_LEANING) or (k in large and leaning[k] >= LARGE_LEANING)
            doubted[k] = _doubt_if_leaning(readings[k], tilted, found_leaning,
                                           ROLL_LEANING_SHARE if roll else LEANING_SHARE)
        return doubted, cleared_alone

    def leaning_probability(self, frame: np.ndarray, candidates: list[Candidate]) -> list[float]:
        """For each candidate, the leaning network's probability that the die leans on another, averaged over its
        crop's quarter turns and their mirror images (as it was trained: vision.training.leaning). One forward pass
        for all of them.

        Against the quarter turns alone: bench/table.py (tables 0-19) named together 93 flat rolls of 100 announced
        rather than 91 calibrated (flat dice doubted as cocked 5 rather than 8) and 91 rather than 90 uncalibrated,
        a cocked roll announced 1 of 100 either way; bench/vision.py's 100 scenes with a die cocked, cocked dice
        given a value 32 rather than 34 one at a time and 24 rather than 25 as rolls; the 200 generated scenes as
        rolls 1,060 dice read rather than 1,059; the dev validation part 509 read either way, 6 wrong rather than 5
        (a marbled die whose swirl reads as pips, beside another: now found lying flat, its reading is not doubted);
        bench/tracker.py --films 11 44 rolls of 53 either way. About 1 ms more per 1280x720 frame (the network's
        time on 40 generated frames, 2.5 ms rather than 1.4; script outside the repository)."""
        if not candidates:
            return []
        crops = _turned_crops(frame, candidates, geometry.LEANING_MARGIN, geometry.LEANING_SIZE, range(4))
        self.leaning.setInput(_and_mirrored(crops))
        leaning = _softmax(self.leaning.forward())[:, 1]
        return leaning.reshape(8, len(candidates)).mean(axis=0).tolist()

    def _read_lone_dice(self, frame: np.ndarray, candidates: list[Candidate], readings: list[DieReading],
                        cleared: set[int] = frozenset()) -> list[DieReading]:
        """The readings, each die left unread as "occluded" that touches none, or is `cleared` by the leaning network
        (_doubt_touching_dice), read by its crop's chroma (_by_chroma) when that look is AS_WHITE_CONFIDENCE sure (see
        CHROMA_GAIN), else by what all its looks agree on (see AGREED_CONFIDENCE)."""
        unread = [k for k, reading in enumerate(readings)
                  if reading.value is None and reading.problem == "occluded"
                  and (k in cleared or not any(_touching(reading, other) for other in readings))]
        if not unread:
            return readings
        both = (self.classifier, self.second_classifier)
        by_chroma = self.classify(frame, [candidates[k] for k in unread], range(TURNED_VIEWS), both,
                                  recolour=_by_chroma)
        read = list(readings)
        for k, look in zip(unread, by_chroma):
            sure, die_probability = _value_sureness(look), _die_probability(look)
            if sure >= AS_WHITE_CONFIDENCE and die_probability >= DIE_PROBABILITY:
                read[k] = replace(readings[k], value=_likeliest_value(look), problem=None,
                                  confidence=die_probability * sure)
        # Each further look only at the dice every look before agrees on: most part ways at the first.
        agreeing = [(k, [look]) for k, look in zip(unread, by_chroma) if read[k].value is None and _may_agree(look)]
        for networks, recolour in (((self.classifier,), None), ((self.second_classifier,), None), (both, _darkened),
                                   (both, _as_a_white_die)):
            if not agreeing:
                break
            looks = self.classify(frame, [candidates[k] for k, _ in agreeing], range(TURNED_VIEWS), networks, recolour)
            agreeing = [(k, seen + [look]) for (k, seen), look in zip(agreeing, looks)
                        if _may_agree(look, _likeliest_value(seen[0]))]
        for k, looks in agreeing:
            agreed = _agreed_value(looks)
            if agreed is not None:
                read[k] = replace(readings[k], value=agreed[0], problem=None, confidence=agreed[1])
        return read

    def _doubt_side_faces(self, frame: np.ndarray, readings: list[DieReading]) -> list[DieReading]:
        """The readings, those the side-face network takes for a side face read as the top without their value."""
        read = [k for k, reading in enumerate(readings) if reading.value is not None]
        if self.side_face is None or not read:
            return readings
        crops = [geometry.side_face_crop(frame, readings[k].center, readings[k].edge) for k in read]
        self.side_face.setInput(_and_mirrored(_blob(crops)))
        side = _softmax(self.side_face.forward())[:, 1].reshape(2, len(read)).mean(axis=0)
        doubted = list(readings)
        for k, probability in zip(read, side):
            if probability >= SIDE_FACE:
                doubted[k] = replace(readings[k], value=None, problem="occluded", confidence=float(probability))
        return doubted


_default_reader: DiceReader | None = None
_default_lock = threading.Lock()


def read_dice(frame_bgr: np.ndarray, calibration=None, dice_set: Mapping[str, int] | None = None) -> list[DieReading]:
    """Every die in a BGR frame (8-bit, height x width x 3); `calibration` (calibration.Calibration)
    makes it faster and surer about size and colours, `dice_set` names the colours of one roll of a
    known set together (DiceReader.read). Raises FrameError for a frame it cannot look at."""
    global _default_reader
    with _default_lock:
        if _default_reader is None:
            _default_reader = DiceReader()
        return _default_reader.read(frame_bgr, calibration, dice_set)


def _pyramid(frame: np.ndarray, scales: list[float]):
    """For each scale (falling), the frame at that scale and how its pixels map back: (level, (ax, bx, ay, by)),
    frame x = level x * ax + bx (and so for y), pixel centres kept. Each level is made from the one before:
    halvings (as training made its views), then a linear resize to the exact size.

    Halving a 1280x720 frame takes 1.7 ms on one core here, an area resize 0.3 ms. Halving by area instead (its
    pixel centres mapped back as a resize's): the dev validation part 506 dice of 635 read rather than 509, 7 wrong
    rather than 6; bench/vision.py's 200 generated scenes as rolls 1,063 of 1,200 rather than 1,057, 2 wrong rather
    than 6, with a die cocked 486 of 600 rather than 493 (scripts outside the repository). The real photos read fewer:
    not taken. Measured again at stop 51, with the networks of then: validation 506 and 7 wrong against 509 and 6,
    the train part 1,457 against 1,467, the generated rolls 1,073 and 2 wrong against 1,063 and 6, with a die cocked
    496 and 24 wrong against 501 and 23: the same trade, not taken."""
    height, width = frame.shape[:2]
    level = frame
    ax, bx, ay, by = 1.0, 0.0, 1.0, 0.0
    for scale in scales:
        while scale * ax <= 0.5:
            level = cv2.pyrDown(level)  # pixel i lies on pixel 2i below
            ax, ay = 2 * ax, 2 * ay
        size = (max(8, round(width * scale)), max(8, round(height * scale)))
        if (level.shape[1], level.shape[0]) != size:
            fx, fy = level.shape[1] / size[0], level.shape[0] / size[1]
            level = cv2.resize(level, size, interpolation=cv2.INTER_LINEAR)  # i lies on (i + 0.5) f - 0.5
            bx, by = bx + ax * (0.5 * fx - 0.5), by + ay * (0.5 * fy - 0.5)
            ax, ay = ax * fx, ay * fy
        yield level, (ax, bx, ay, by)


def _heat_peaks(out: np.ndarray):
    """Centres (x, y), extents and heat of the strongest local maxima of one detector output (heat logit, log2 size,
    x and y offset at a quarter of its input's resolution), input pixels."""
    logits = out[0]
    threshold = math.log(HEAT_THRESHOLD / (1 - HEAT_THRESHOLD))
    is_peak = (logits >= cv2.dilate(logits, np.ones((3, 3), np.uint8))) & (logits > threshold)
    i, j = np.nonzero(is_peak)
    strongest = np.argsort(-logits[i, j])[:MAX_CANDIDATES]
    i, j = i[strongest], j[strongest]
    stride = 4
    x = j * stride + (stride - 1) / 2 + out[2, i, j] * stride
    y = i * stride + (stride - 1) / 2 + out[3, i, j] * stride
    extent = geometry.DETECTOR_EXTENT * np.exp2(out[1, i, j])
    return x, y, extent, 1 / (1 + np.exp(-logits[i, j]))


def _turned_crops(frame: np.ndarray, candidates: list[Candidate], margin: float, size: int, turns,
                  recolour: Callable[[np.ndarray], np.ndarray] | None = None) -> np.ndarray:
    """A network's input: for each of `turns` quarter turns in order, each candidate's size x size crop of `margin`
    times its extent, `recolour`ed when given."""
    crops = [geometry.crop_around(frame, c.x, c.y, c.extent * margin, size) for c in candidates]
    if recolour is not None:
        crops = [recolour(crop) for crop in crops]
    turned = [np.ascontiguousarray(np.rot90(crop, k)) for k in turns for crop in crops]
    return _blob(turned)


def _blob(crops: list[np.ndarray]) -> np.ndarray:
    """The networks' input batch (geometry.PIXEL_MEAN and PIXEL_SCALE)."""
    return cv2.dnn.blobFromImages(crops, geometry.PIXEL_SCALE, None, (geometry.PIXEL_MEAN,) * 3)


def _and_mirrored(blob: np.ndarray) -> np.ndarray:
    """A network's input batch followed by the mirror image (left to right) of each of its inputs."""
    return np.concatenate([blob, blob[..., ::-1]])


def _darkened(crop: np.ndarray) -> np.ndarray:
    return cv2.LUT(crop, DARKENING)


def _as_a_white_die(crop: np.ndarray) -> np.ndarray:
    """The crop grey by each pixel's distance from the colour of its middle (see AS_WHITE_GAIN), light where alike."""
    lab = to_lab(crop)
    height, width = crop.shape[:2]
    half_y, half_x = max(1, round(height * AS_WHITE_MIDDLE)), max(1, round(width * AS_WHITE_MIDDLE))
    middle = lab[height // 2 - half_y:height // 2 + half_y, width // 2 - half_x:width // 2 + half_x]
    distance = np.linalg.norm(lab - np.median(middle.reshape(-1, 3), axis=0), axis=2)
    grey = np.clip(255.0 - distance * AS_WHITE_GAIN, 0, 255).astype(np.uint8)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)


def _by_chroma(crop: np.ndarray) -> np.ndarray:
    """The crop grey by each pixel's chroma (CIELAB, times CHROMA_GAIN), light where colourless."""
    lab = to_lab(crop)
    grey = np.clip(255.0 - np.hypot(lab[..., 1], lab[..., 2]) * CHROMA_GAIN, 0, 255).astype(np.uint8)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)


def _by_red(crop: np.ndarray) -> np.ndarray:
    """The crop grey by its red channel, dark where red: red pips on a black, blue or marbled body stand dark on light,
    as a white die's do, where the lightness the classifier sees most hardly parts them. In a photo, a look at a die
    still unread as a white die (classify_at_best_scale), as sure as that one. Against the reader without it: the dev
    validation part 523 dice of 635 read rather than 518, the tune part 423 of 478 rather than 421, the train part
    1,487 rather than 1,479, the colour-labelled photos 186 rather than 185, the duplicates 287 as before, as many
    wrong (6, 3, 12, 5 and 3); bench/vision.py's 200 generated scenes one at a time 1,040 rather than 1,038, with a
    die cocked 480 rather than 478, as many wrong (9 and 33; cocked dice given a value 25 either way); bench/table.py
    --tables 10 as before. Also among the looks at a die unread that touches none (_read_lone_dice), after the chroma
    look: the train part 3 dice more, the rest as before. Not in a roll: there it read the 200 generated scenes 3
    dice more, but gave a value to one more cocked die of bench/photoreal.py's 30 Cycles frames with a die cocked
    (scripts outside the repository)."""
    return cv2.cvtColor(255 - crop[..., 2], cv2.COLOR_GRAY2BGR)


def _red_light(crop: np.ndarray) -> np.ndarray:
    """The crop grey by its red channel, light where red: red pips on a dark body stand light on dark, as a black
    die's white pips do: the classifier reads some dice seen so that it leaves unread seen by _by_red. In a photo, the
    last look at a die (classify_at_best_scale). Against the reader without it: the dev validation part 526 dice of
    635 read rather than 523, the train part 1,490 rather than 1,487, the colour-labelled photos 187 rather than 186,
    the tune part and the duplicates as before (423 and 287), as many wrong (6, 12, 5, 3 and 3); bench/vision.py's
    generated scenes one at a time, with a die cocked or not, and bench/table.py --tables 10 (each way) as before.
    Taken in rolls too, it read none more of the 200 generated scenes as rolls, and one more wrong: a green 3 paled by
    glare, named yellow, read as a 1."""
    return cv2.cvtColor(crop[..., 2].copy(), cv2.COLOR_GRAY2BGR)


def _with_rims(frame: np.ndarray, dice: list[tuple], readings: list[DieReading]) -> list[colour.Face]:
    """The faces of `dice` (as `read` finds them), each with the rim round its reading's top (colour.measure_rim)."""
    return [replace(face, rim=colour.measure_rim(frame, reading.center, reading.corners))
            for (*_, face), reading in zip(dice, readings)]


def _softmax(logits: np.ndarray) -> np.ndarray:
    """Probabilities from a network's logits, one row per input."""
    exponentials = np.exp(logits - logits.max(axis=1, keepdims=True))
    return exponentials / exponentials.sum(axis=1, keepdims=True)


def _leaves_frame(frame: np.ndarray, corners) -> bool:
    """Whether a die's top face, as outlined (_top_face), runs past the frame's border. The detector's box holds
    only what the frame shows of a die cut off by it, so a die half outside passes EDGE_MARGIN, and what shows of it
    may be a side face: a die half outside a generated frame was read as a 6 for its side (0.98 sure), its top a 4.
    Of the readings with a value on 40 generated scenes with two dice cut by the frame (synth random_scene edge=2)
    and on seeds 0-59 of the usual ones, 2 of 460 had an outline past the border, both wrong; the nearest of the
    rest lay 1.4 dice inside (scripts outside the repository)."""
    height, width = frame.shape[:2]
    return any(x < 0 or y < 0 or x > width - 1 or y > height - 1 for x, y in corners)


def _top_face(frame: np.ndarray, candidate: Candidate):
    """The top face's outline (a square turned to the die's edges) and its centre."""
    side = 24
    patch = geometry.crop_around(frame, candidate.x, candidate.y, candidate.extent, side)
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    weight = gx * gx + gy * gy
    direction = np.arctan2(gy, gx) * 4  # a square's edges agree modulo 90 degrees
    angle = math.atan2(float((weight * np.sin(direction)).sum()), float((weight * np.cos(direction)).sum())) / 4
    # The extent is the box of the turned face: edge = extent / (|cos| + |sin|).
    edge = candidate.extent / (abs(math.cos(angle)) + abs(math.sin(angle)))
    half = edge / 2
    c, s = math.cos(angle), math.sin(angle)
    corners = tuple(
        (candidate.x + dx * c - dy * s, candidate.y + dx * s + dy * c)
        for dx, dy in ((-half, -half), (half, -half), (half, half), (-half, half))
    )
    return corners, (float(candidate.x), float(candidate.y))


def _is_blurred(frame: np.ndarray, candidate: Candidate) -> bool:
    """Sharpness against contrast: a sharp die has edges about as strong as its contrast allows in every direction (a
    step edge gives Sobel a peak of about 4 x the contrast; blur spreads it). Asked only of a die the classifier cannot
    read."""
    patch = geometry.crop_around(frame, candidate.x, candidate.y, candidate.extent, 32)
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    contrast = float(np.percentile(grey, 95) - np.percentile(grey, 5))
    if contrast < 1:
        return True
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    weakest = min(float(np.percentile(np.abs(gx * math.cos(angle) + gy * math.sin(angle)), 99))
                  for angle in np.arange(BLUR_DIRECTIONS) * math.pi / BLUR_DIRECTIONS)
    return weakest < BLURRED_SHARPNESS * contrast


def _may_be_a_die(candidate: Candidate, probs: np.ndarray) -> bool:
    """Whether the classifier takes the candidate for a die (DIE_PROBABILITY) or the detector is SURE_PEAK sure of it:
    worth more looks."""
    return _die_probability(probs) >= DIE_PROBABILITY or candidate.score >= SURE_PEAK


def _die_probability(probs: np.ndarray) -> float:
    """How sure the classifier is that this is a die, averaged over the views."""
    return float(1.0 - probs[:, NOT_A_DIE].mean())


def _value_sureness(probs: np.ndarray) -> float:
    """The likeliest value's probability given that this is a die, averaged over the views: what a value
    is reported by."""
    mean = probs.mean(axis=0)
    return float(mean[1:7].max() / max(_die_probability(probs), 1e-6))


def _likeliest_value(probs: np.ndarray) -> int:
    """The value (1-6) whose probability, averaged over the views, is highest."""
    return int(np.argmax(probs[:, 1:7].mean(axis=0))) + 1


def _may_agree(look: np.ndarray, value: int | None = None) -> bool:
    """Whether a look can be one of looks that agree (_agreed_value): it takes the die for a die, and for `value` if
    given."""
    return _die_probability(look) >= DIE_PROBABILITY and value in (None, _likeliest_value(look))


def _agreed_value(looks) -> tuple[int, float] | None:
    """The value every one of `looks` (each as `classify` gives a candidate's) takes likeliest and how sure they are of
    it together (die probability times value sureness, each averaged over the looks), when each takes the die for a die
    (DIE_PROBABILITY) and their value sureness averages AGREED_CONFIDENCE or more; else None."""
    value = _likeliest_value(looks[0])
    if not all(_may_agree(look, value) for look in looks):
        return None
    sure = float(np.mean([_value_sureness(look) for look in looks]))
    if sure < AGREED_CONFIDENCE:
        return None
    return value, float(np.mean([_die_probability(look) for look in looks])) * sure


def _disagree(probs: np.ndarray, other: np.ndarray) -> bool:
    """Whether two looks at a die are each sure enough to be read (TURNED_CONFIDENCE) of different values."""
    return (min(_sureness(probs), _sureness(other)) >= TURNED_CONFIDENCE
            and _likeliest_value(probs) != _likeliest_value(other))


def _sureness(probs: np.ndarray) -> float:
    """How sure the classifier is that this is a die showing one value: the likeliest value's probability,
    averaged over the views."""
    return float(probs[:, 1:7].mean(axis=0).max())


def _touching(reading: DieReading, other: DieReading) -> bool:
    """Whether another die's centre lies within TOUCHING edges of this one's."""
    return other is not reading and math.dist(other.center, reading.center) < TOUCHING * max(reading.edge, other.edge)


def _clear_of(center: tuple[float, float], edge: float, readings: list[DieReading]) -> bool:
    """Whether a die of `edge` centred at `center` lies on none of `readings`: more than ONE_DIE of the larger edge
    from each one's centre."""
    return all(math.dist(center, other.center) > ONE_DIE * max(edge, other.edge) for other in readings)


def _doubt_if_leaning(reading: DieReading, tilted: float, found_leaning: bool = False,
                      share: float = LEANING_SHARE) -> DieReading:
    """The reading of a die touching another, or no value and "cocked" when it is not TOUCHING_CONFIDENCE
    sure of it, the classifier finds it `tilted` (the largest share of "unreadable" among its turns) by
    `share` or more, or the leaning network has `found_leaning` it."""
    if reading.value is None or (reading.confidence >= TOUCHING_CONFIDENCE and tilted < share
                                 and not found_leaning):
        return reading
    return replace(reading, value=None, problem="cocked", confidence=1.0 - reading.confidence)


def _changed_places(changed: np.ndarray, die: float) -> list[tuple[float, float]]:
    """Places (x, y) in a mask of where the table changed that may hold a die `die` pixels across (CHANGED_DEPTH)."""
    depth = cv2.distanceTransform(changed, cv2.DIST_L2, 3)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(changed)
    places = []
    for region in range(1, count):
        x0, y0, width, height, area = stats[region]
        if not CHANGED_AREA[0] * die**2 <= area <= CHANGED_AREA[1] * die**2:
            continue
        inside = np.where(labels[y0:y0 + height, x0:x0 + width] == region, depth[y0:y0 + height, x0:x0 + width], 0)
        before = len(places)
        while True:
            y, x = np.unravel_index(int(np.argmax(inside)), inside.shape)
            if inside[y, x] < CHANGED_DEPTH * die:
                break
            places.append((float(x0 + x), float(y0 + y)))
            cv2.circle(inside, (int(x), int(y)), int(round(CHANGED_SPACING * die)), 0, -1)
        if len(places) == before and area <= DIE_SIZED_REGION[0] * die**2 and max(width, height) <= DIE_SIZED_REGION[1] * die:
            places.append((float(centres[region][0]), float(centres[region][1])))
    return places


def _smallest_die(short_side: int) -> float:
    """Without a calibration, the extent of the smallest die looked for in a frame with this shorter side."""
    return max(SMALLEST_DIE, SMALLEST_DIE_SHARE * short_side)


def _holds(large: Candidate, small: Candidate) -> bool:
    """Whether `large` is the larger and its box holds the centre of `small`: two readings of one place."""
    return large.extent > small.extent and math.hypot(small.x - large.x, small.y - large.y) < large.extent / 2


def _may_be_a_pip_of(small: Candidate, large: Candidate, smallest: float) -> bool:
    """Whether `small`, found inside `large`, may be one of its pips, which must not hide it (see LARGER_DIE)."""
    scale = large.extent / small.extent
    return _holds(large, small) and (scale > PIP_SCALE or (scale > LARGER_DIE and small.extent < smallest))


def _is_heap(die: tuple, found: list[tuple]) -> bool:
    """Whether this reading (as `read` finds them) holds HEAP_DICE or more dice read with values."""
    candidate = die[0]
    return sum(_holds(candidate, other) and reading.value is not None for other, _, reading, _ in found) >= HEAP_DICE


def _gives_way(die: tuple, found: list[tuple]) -> bool:
    """Whether this die (as `read` finds them) gives way to another reading of the same place (see
    LARGER_DIE): a smaller die gives way to the larger one around it, unless it alone shows a value."""
    candidate, _, reading, _ = die
    for other, _, other_reading, _ in found:
        if _holds(other, candidate) and (other_reading.value is not None or reading.value is None):
            return True
        if _holds(candidate, other) and other_reading.value is not None and reading.value is None:
            return True
    return False


def _suppress_duplicates(candidates: list[Candidate], smallest: float,
                         board_scale: float = math.inf) -> list[Candidate]:
    """Strongest first; drop a candidate whose centre lies within half a die of a stronger one, unless the
    stronger one lies inside it and is PIP_SCALE times smaller, or LARGER_DIE times smaller and smaller than
    the `smallest` die looked for (see LARGER_DIE), or is `board_scale` times larger (see BOARD_SCALE)."""
    kept: list[Candidate] = []
    for candidate in sorted(candidates, key=lambda c: -c.score):
        if all(math.hypot(candidate.x - k.x, candidate.y - k.y) > 0.5 * max(candidate.extent, k.extent)
               or _may_be_a_pip_of(k, candidate, smallest) or k.extent > board_scale * candidate.extent
               for k in kept):
            kept.append(candidate)
    return kept


# The module that trains each network file, for the message when one is missing.
TRAINED_BY = {"leaning.onnx": "vision.training.leaning", "centring.onnx": "vision.training.centring",
              "side-face.onnx": "vision.training.sideface"}


def _load(path: Path, engine: str = "ENGINE_AUTO"):
    """The network in an ONNX file, run by OpenCV's `engine` where this OpenCV has one by that name."""
    if not path.is_file():
        trainer = TRAINED_BY.get(path.name, "vision.training.train")
        raise FileNotFoundError(f"{path}: the reader's network is missing (train it: python -m {trainer})")
    if not hasattr(cv2.dnn, engine):
        return cv2.dnn.readNetFromONNX(str(path))
    return cv2.dnn.readNetFromONNX(str(path), getattr(cv2.dnn, engine))
