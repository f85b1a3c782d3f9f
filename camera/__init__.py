"""Frame sources behind one interface: Raspberry Pi camera, USB webcam, video file, image folder, demo."""
