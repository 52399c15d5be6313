"""Text before any dictionary: mixed-script segmentation and simplified/traditional scripts."""
