"""Object detection: IoU, non-maximum suppression, COCO and Pascal VOC evaluation per segment, in the engines."""

from framemetrics.detection.boxes import box_iou
from framemetrics.detection.coco import coco_evaluate, coco_precision_table, coco_recall_table
from framemetrics.detection.coco_io import read_coco
from framemetrics.detection.nms import nms
from framemetrics.detection.voc import voc_evaluate

__all__ = ["box_iou", "coco_evaluate", "coco_precision_table", "coco_recall_table", "nms", "read_coco", "voc_evaluate"]
